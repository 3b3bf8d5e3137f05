"""per_example_clip: the closed form r_i (x_i, 1) with the residuals by ``X @ w + b - y``, the
squared norm r_i^2 (|x_i|^2 + 1) by ``jnp.einsum('nd,nd->n')``, the factor ``jnp.clip(C / norm,
max=1)`` with the norm's zeros kept away, the mean by ``jnp.einsum('n,nd->d') / n``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = X.shape[0]
    r = X @ w + b - y
    sq = r ** 2 * (jnp.einsum("nd,nd->n", X, X) + 1.0)
    norm = jnp.sqrt(sq)
    factor = jnp.clip(clip_norm / jnp.where(norm == 0, 1.0, norm), max=1.0)
    rs = r * factor
    return {"grad_w": jnp.einsum("n,nd->d", rs, X) / n, "grad_b": jnp.sum(rs) / n}
