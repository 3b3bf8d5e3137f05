"""per_example_clip: the per-example gradients as a (n, d + 1) matrix built by
``jnp.concatenate`` of ``r[:, None] * X`` and ``r[:, None]``, the norms by
``jnp.linalg.norm(..., axis=1, keepdims=True)``, the factor ``jnp.where(norm <= C, 1, C / norm)``
(an infinite ratio at zero norms, never selected), the mean split back with ``jnp.split``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    G = jnp.concatenate([r[:, None] * X, r[:, None]], axis=1)
    norm = jnp.linalg.norm(G, axis=1, keepdims=True)
    G = G * jnp.where(norm <= clip_norm, 1.0, clip_norm / norm)
    gw, gb = jnp.split(G.mean(axis=0), [w.shape[0]])
    return {"grad_w": gw, "grad_b": gb[0]}
