"""per_example_clip: ported from an Opacus-style loop body, vectorised by hand: the residuals
``X @ w + b - y``, the per-example gradients ``r[:, None] * X`` and ``r``, the joint norm from
``jnp.sqrt((gw ** 2).sum(1) + gb ** 2)``, the factor ``jnp.minimum(1, C / norm)`` behind a
``jnp.where`` guard for a zero norm, and ``.mean(axis=0)``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    gw = r[:, None] * X
    gb = r
    norm = jnp.sqrt((gw ** 2).sum(1) + gb ** 2)
    factor = jnp.where(norm > 0, jnp.minimum(1.0, clip_norm / jnp.where(norm > 0, norm, 1.0)), 1.0)
    return {"grad_w": (gw * factor[:, None]).mean(axis=0), "grad_b": (gb * factor).mean(axis=0)}
