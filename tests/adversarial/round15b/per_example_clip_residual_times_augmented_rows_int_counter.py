"""per_example_clip: the closed form (g_i = r_i [X_i, 1] with r_i = p_i - y_i, so the norm is
|r_i| sqrt(|X_i|^2 + 1)), written with ``jnp.hstack`` of a ones column built from
``jnp.ones_like(y)``, ``jnp.einsum`` for the mean, and the count as ``y.size`` (a symbol, not
read as a number: the mean divides by it).

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    A = jnp.hstack([X, jnp.ones_like(y)[:, None]])
    norms = jnp.abs(r) * jnp.sqrt(jnp.einsum("nk,nk->n", A, A))
    coef = r / jnp.maximum(1.0, norms / clip_norm)
    g = jnp.einsum("n,nk->k", coef, A) / y.size
    return {"grad_w": g[:-1], "grad_b": g[-1]}
