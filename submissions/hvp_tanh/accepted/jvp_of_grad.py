"""Forward-over-reverse: the JVP of the gradient in the direction v.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(z):
        return jnp.sum(jnp.tanh(jnp.dot(W, z)))

    _, tangent = jax.jvp(jax.grad(f), (x,), (v,))
    return tangent
