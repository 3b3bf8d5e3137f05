"""per_example_clip: the per-example gradients in closed form (``r * x_i`` and ``r`` with the
residual ``r``), joined into an ``(n, d + 1)`` array with ``jnp.concatenate``, clipped with
``jnp.linalg.norm(..., axis=1, keepdims=True)`` and ``jnp.maximum(1.0, norm / C)``, averaged,
and split back with slicing.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    G = jnp.concatenate([r[:, None] * X, r[:, None]], axis=1)
    norm = jnp.linalg.norm(G, axis=1, keepdims=True)
    mean = jnp.mean(G / jnp.maximum(1.0, norm / clip_norm), axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
