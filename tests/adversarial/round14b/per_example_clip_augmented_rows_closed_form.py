"""per_example_clip: the closed form with the bias as an extra feature: rows [x_i, 1] (an
``(n, d + 1)`` array), residuals r_i, per-example gradient r_i [x_i, 1] whose norm is
|r_i| * ||[x_i, 1]||; the clipped mean as one matrix-vector product, split at d.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n, d = X.shape
    rows = jnp.concatenate([X, jnp.ones((n, 1), X.dtype)], axis=1)
    theta = jnp.concatenate([w, b[None]])
    r = rows @ theta - y
    norms = jnp.abs(r) * jnp.linalg.norm(rows, axis=1)
    coef = r / jnp.maximum(1.0, norms / clip_norm)
    g = coef @ rows / n
    return {"grad_w": g[:d], "grad_b": g[d]}
