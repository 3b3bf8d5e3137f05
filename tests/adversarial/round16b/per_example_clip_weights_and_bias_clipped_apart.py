"""per_example_clip: a near miss: the weights' part and the bias' part of each example's gradient
clipped each to the norm on its own, not jointly as one vector of ``d + 1`` entries.

Problem: per_example_clip
Expected: WA
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    gw = r[:, None] * X
    gb = r
    nw = jnp.linalg.norm(gw, axis=1)
    fw = 1.0 / jnp.maximum(1.0, nw / clip_norm)
    fb = 1.0 / jnp.maximum(1.0, jnp.abs(gb) / clip_norm)
    return {"grad_w": jnp.mean(gw * fw[:, None], axis=0), "grad_b": jnp.mean(gb * fb)}
