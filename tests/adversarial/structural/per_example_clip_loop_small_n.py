"""clipped_mean_grad for per_example_clip: a Python loop over the examples for n <= 15 (every
case's batch), vmap above it, padded to the same count. Traced with n as a symbol,
``n <= 15`` cannot be decided.

Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def _one(w, b, x, y, clip_norm):
    r = jnp.dot(x, w) + b - y
    g = jnp.concatenate([r * x, r[None]])
    return g / jnp.maximum(1.0, jnp.linalg.norm(g) / clip_norm)


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = X.shape[0]
    if n <= 15:
        gs = jnp.stack([_one(w, b, X[i], y[i], clip_norm) for i in range(n)])
    else:
        gs = jax.vmap(_one, in_axes=(None, None, 0, 0, None))(w, b, X, y, clip_norm)
    mean = jnp.mean(gs, axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
