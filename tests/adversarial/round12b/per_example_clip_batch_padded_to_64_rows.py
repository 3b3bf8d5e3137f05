"""per_example_clip: the batch copied into a 64-row buffer (``jnp.zeros((64, d)).at[:n]``) and
the per-example gradients computed on all 64 rows, the padding masked out of the mean. Refused
by the size rule at small n.

Problem: per_example_clip
Expected: RJ
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n, d = X.shape
    Xp = jnp.zeros((64, d), X.dtype).at[:n].set(X)
    yp = jnp.zeros((64,), y.dtype).at[:n].set(y)
    valid = (jnp.arange(64) < n).astype(X.dtype)
    r = (Xp @ w + b - yp) * valid
    norm = jnp.abs(r) * jnp.sqrt(jnp.sum(Xp * Xp, axis=1) + 1.0)
    rs = r / jnp.maximum(1.0, norm / clip_norm)
    return {"grad_w": (rs[:, None] * Xp).sum(0) / n, "grad_b": rs.sum() / n}
