"""The curvature factor with the wrong sign: 2 t (1 - t^2) instead of -2 t (1 - t^2).

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    return W.T @ (2.0 * t * (1.0 - t * t) * (W @ v))
