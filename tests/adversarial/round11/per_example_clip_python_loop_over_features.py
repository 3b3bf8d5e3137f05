"""per_example_clip: the prediction and the squared norms summed by a Python loop over the d
features (d is a number when traced; the examples stay one batch), the gradient in closed
form r_i * (X_i, 1).

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    d = X.shape[1]
    p = b + jnp.zeros_like(y)
    for k in range(d):
        p = p + X[:, k] * w[k]
    r = p - y
    sq = r * r
    for k in range(d):
        sq = sq + (r * X[:, k]) ** 2
    scale = 1.0 / jnp.maximum(1.0, jnp.sqrt(sq) / clip_norm)
    rs = r * scale
    return {"grad_w": jnp.mean(rs[:, None] * X, axis=0), "grad_b": jnp.mean(rs)}
