"""clipped_mean_grad for per_example_clip: per-example work inside the reducer of
``lax.reduce_window``, another primitive that carries a function of the submission.

Expected: RJ function_primitive
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    g = jnp.concatenate([r[:, None] * X, r[:, None]], axis=1)
    norm = jnp.sqrt(jax.lax.reduce_window(g * g, 0.0, lambda a, c: a + c, (1, g.shape[1]), (1, 1), "VALID"))
    g = g / jnp.maximum(1.0, norm / clip_norm)
    mean = jnp.mean(g, axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
