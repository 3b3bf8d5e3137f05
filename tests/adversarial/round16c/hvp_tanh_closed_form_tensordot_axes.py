"""hvp_tanh: the closed form ``W^T (f''(Wx) * (W v))`` with ``f'' = -2 tanh sech^2``, every
product a ``jnp.tensordot`` with ``axes=1`` or ``axes=([0], [0])``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    z = jnp.tensordot(W, x, axes=1)
    t = jnp.tanh(z)
    curvature = -2.0 * t * (1.0 - t * t)
    wv = jnp.tensordot(W, v, axes=1)
    return jnp.tensordot(curvature * wv, W, axes=([0], [0]))
