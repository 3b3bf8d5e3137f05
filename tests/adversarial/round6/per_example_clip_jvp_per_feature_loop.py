"""per_example_clip: forward mode by hand: the vector of the n losses pushed forward with
``jax.jvp`` along each of the d + 1 parameter directions, a Python loop over the features (d is
a number); each push gives one column of the per-example gradients.

Problem: per_example_clip
Expected: AC
"""

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def losses(w_, b_):
        return 0.5 * (X @ w_ + b_ - y) ** 2

    d = w.shape[0]
    cols = []
    for j in range(d):
        e = jnp.zeros_like(w).at[j].set(1.0)
        cols.append(jax.jvp(losses, (w, b), (e, jnp.zeros_like(b)))[1])
    gw = jnp.stack(cols, axis=1)
    gb = jax.jvp(losses, (w, b), (jnp.zeros_like(w), jnp.ones_like(b)))[1]
    sq = jnp.sum(gw ** 2, axis=1) + gb ** 2
    pos = sq > 0
    f = jnp.where(pos, 1.0 / jnp.maximum(1.0, jnp.sqrt(jnp.where(pos, sq, 1.0)) / clip_norm), 1.0)
    return {"grad_w": jnp.mean(gw * f[:, None], axis=0), "grad_b": jnp.mean(gb * f)}
