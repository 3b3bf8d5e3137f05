"""per_example_clip: the closed form (the gradient of example i is ``r_i * (x_i, 1)`` with r_i its
residual), its squared norm folded from a list of parts with ``functools.reduce``; the mean
divided by ``X.shape[0]`` (a symbolic dim in arithmetic, not read as a number).

Problem: per_example_clip
Expected: AC
Cases: all
"""
import functools
import operator

import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    r = X @ w + b - y
    gw = r[:, None] * X
    gb = r
    sq = functools.reduce(operator.add, [jnp.sum(gw * gw, axis=1), gb * gb])
    scale = jnp.minimum(1.0, clip_norm / jnp.sqrt(jnp.maximum(sq, clip_norm ** 2)))
    n = X.shape[0]
    return {"grad_w": jnp.sum(gw * scale[:, None], axis=0) / n,
            "grad_b": jnp.sum(gb * scale) / n}
