"""hvp_tanh: a near miss: ``H v`` by a central difference of gradients,
``(grad f(x + h v) - grad f(x - h v)) / (2 h)`` with ``h = 1e-3``: in float32 the difference
loses digits, off by more than the tolerance on some cases.

Problem: hvp_tanh
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    h = 1e-3
    g = jax.grad(lambda u: jnp.sum(jnp.tanh(W @ u)))
    return (g(x + h * v) - g(x - h * v)) / (2 * h)
