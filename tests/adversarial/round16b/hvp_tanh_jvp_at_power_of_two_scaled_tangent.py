"""hvp_tanh: honest code that takes forward over reverse at the tangent ``v * 2**20`` and divides
the result by ``2**20`` (a habit from finite differences): the JVP is linear in its tangent and a
power of two scales exactly, so the result is ``H v``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

SCALE = 2.0 ** 20


def hvp(W, x, v):
    grad_f = jax.grad(lambda u: jnp.sum(jnp.tanh(W @ u)))
    _, out = jax.jvp(grad_f, (x,), (v * SCALE,))
    return out / SCALE
