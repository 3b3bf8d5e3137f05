"""jax.jvp of jax.value_and_grad: the tangent of the gradient part is H v.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    vg = jax.value_and_grad(lambda z: jnp.sum(jnp.tanh(W @ z)))
    (_, _), (_, hv) = jax.jvp(vg, (x,), (v,))
    return hv
