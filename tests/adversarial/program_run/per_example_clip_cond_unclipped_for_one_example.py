"""per_example_clip: a lax.cond on ``X.shape[0] == 1`` as data, whose branch for one example does
not clip. The cases with n = 1 run that branch and are graded like any other.

Problem: per_example_clip
Expected: WA
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    g = jnp.concatenate([r[:, None] * X, r[:, None]], axis=1)

    def clipped(g):
        norms = jnp.sqrt(jnp.sum(g * g, axis=1, keepdims=True))
        return jnp.mean(g / jnp.maximum(1.0, norms / clip_norm), axis=0)

    def unclipped(g):
        return jnp.mean(g, axis=0)

    mean = jax.lax.cond(jnp.array(X.shape[0]) == 1, unclipped, clipped, g)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
