"""per_example_clip: honest code with array operations alone: the residuals ``r = X w + b - y``,
the squared norms ``r**2 (|X_i|^2 + 1)``, and the factor ``min(1, C * rsqrt(n2))`` taken only where
``n2 > C**2``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    n2 = r * r * (jnp.sum(X * X, axis=1) + 1.0)
    over = n2 > clip_norm * clip_norm
    factor = jnp.where(over, clip_norm * jax.lax.rsqrt(jnp.where(over, n2, 1.0)), 1.0)
    coef = factor * r
    return {"grad_w": jnp.mean(coef[:, None] * X, axis=0), "grad_b": jnp.mean(coef)}
