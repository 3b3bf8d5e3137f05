"""hvp_tanh: the gradient as ``jax.vjp(f, z)[1](1.0)`` (the pullback of a unit cotangent) and
H v as ``jax.jvp`` of that function: forward over reverse without ``jax.grad``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(z):
        return jnp.sum(jnp.tanh(jnp.dot(W, z)))

    def gradient(z):
        value, pullback = jax.vjp(f, z)
        return pullback(jnp.ones_like(value))[0]

    return jax.jvp(gradient, (x,), (v,))[1]
