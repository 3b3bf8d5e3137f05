"""The closed form by broadcasting: each row of W scaled by its unit's curvature times
(W v), summed over the rows. The largest value is m x d, like W itself.

Expected verdict: accepted.
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    weights = -2.0 * t * (1.0 - t**2) * (W @ v)
    return jnp.sum(W * weights[:, None], axis=0)
