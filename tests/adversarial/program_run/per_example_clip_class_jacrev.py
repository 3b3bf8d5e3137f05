"""per_example_clip, honest: a small class holding the loss, per-example gradients by
``jax.jacrev`` of the vector of losses, clipped and averaged.

Problem: per_example_clip
Expected: AC
"""

import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, clip_norm):
        self.clip_norm = clip_norm

    def losses(self, w, b, X, y):
        return 0.5 * (X @ w + b - y) ** 2

    def grads(self, w, b, X, y):
        gw, gb = jax.jacrev(self.losses, argnums=(0, 1))(w, b, X, y)
        norms = jnp.sqrt(jnp.sum(gw * gw, axis=1) + gb * gb)
        scale = 1.0 / jnp.maximum(1.0, norms / self.clip_norm)
        return jnp.mean(gw * scale[:, None], axis=0), jnp.mean(gb * scale)


def clipped_mean_grad(w, b, X, y, clip_norm):
    gw, gb = Linear(clip_norm).grads(w, b, X, y)
    return {"grad_w": gw, "grad_b": gb}
