"""hvp_tanh: a near miss: the closed form with the second derivative of tanh written with the
wrong sign (``+2 s (1 - s^2)``): honest-looking, numerically wrong.

Problem: hvp_tanh
Expected: WA
"""
import jax.numpy as jnp


def hvp(W, x, v):
    s = jnp.tanh(W @ x)
    curv = 2.0 * s * (1.0 - s * s)
    return W.T @ (curv * (W @ v))
