"""Differentiates sech^2 as -tanh * sech^2, losing the factor 2.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    return W.T @ (-t * (1.0 - t * t) * (W @ v))
