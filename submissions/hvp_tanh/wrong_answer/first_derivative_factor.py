"""Uses tanh's first derivative 1 - t^2 where its second derivative -2 t (1 - t^2) belongs:
W^T diag(1 - t^2) W v.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    return W.T @ ((1.0 - t * t) * (W @ v))
