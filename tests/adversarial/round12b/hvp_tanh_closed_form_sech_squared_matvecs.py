"""hvp_tanh: the closed form by two matrix-vector products, ``W.T @ (c * (W @ v))`` with c the
tanh's second derivative written ``-2 * t * (1 - t ** 2)`` and ``jnp.matvec``-free ``@``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(jnp.dot(W, x))
    c = -2.0 * t * (1.0 - t ** 2)
    return jnp.dot(W.T, c * jnp.dot(W, v))
