"""per_example_clip: a Python branch on the static clip_norm that skips the clip altogether
when clip_norm >= 10 ("nothing reaches that"), right on the example with clip_norm 10 but not
where an example's gradient is larger than a clip_norm of 10 or more.

Problem: per_example_clip
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    gw = r[:, None] * X
    gb = r
    if clip_norm < 10:
        sq = jnp.sum(gw * gw, axis=1) + gb * gb
        nz = sq > 0
        factor = jnp.where(nz, jnp.minimum(1.0, clip_norm / jnp.sqrt(jnp.where(nz, sq, 1.0))),
                           1.0)
        gw, gb = gw * factor[:, None], gb * factor
    return {"grad_w": jnp.mean(gw, axis=0), "grad_b": jnp.mean(gb)}
