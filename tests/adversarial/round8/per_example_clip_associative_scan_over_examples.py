"""per_example_clip: the clipped gradients summed over the examples with ``lax.associative_scan``
(a prefix sum, its last row taken) instead of a mean's sum: JAX writes the scan out as levels of
slices, whose number depends on n, which is a symbol here.

Problem: per_example_clip
Expected: RJ
"""
import jax.numpy as jnp
from jax import lax


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    G = jnp.concatenate([r[:, None] * X, r[:, None]], axis=1)
    norm = jnp.sqrt(jnp.sum(G * G, axis=1, keepdims=True))
    G = G / jnp.maximum(1.0, norm / clip_norm)
    total = lax.associative_scan(jnp.add, G)[-1]
    mean = total / X.shape[0]
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
