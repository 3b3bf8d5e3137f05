"""per_example_clip: the per-example norm in closed form, ``abs(r) * sqrt(|x|^2 + 1)`` with the
builtin ``abs`` on the residuals, the factor ``1 / jnp.maximum(1, norm / C)`` applied to the
residuals before one matrix product ``X.T @ (r * factor) / n``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    norm = abs(r) * jnp.sqrt(jnp.sum(X ** 2, axis=1) + 1.0)
    scaled = r / jnp.maximum(1.0, norm / clip_norm)
    n = X.shape[0]
    return {"grad_w": X.T @ scaled / n, "grad_b": jnp.sum(scaled) / n}
