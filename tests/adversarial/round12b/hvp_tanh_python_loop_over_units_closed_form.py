"""hvp_tanh: a Python loop over the m units with the closed form per unit,
``-2 tanh(z) sech^2(z) (w . v) w``, sech^2 written ``1 / cosh(z) ** 2``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    m = W.shape[0]
    total = 0.0
    for i in range(m):
        z = W[i] @ x
        sech2 = 1.0 / jnp.cosh(z) ** 2
        total = total + (-2.0 * jnp.tanh(z) * sech2 * (W[i] @ v)) * W[i]
    return total
