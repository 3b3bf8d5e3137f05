"""per_example_clip: the batch copied into a buffer of 64 rows (the largest n) and a Python loop
over all 64 slots, each masked by whether it is a real example (n compared as data). Nothing
reads n as a number.

Problem: per_example_clip
Expected: RJ
"""

import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n, d = X.shape
    Xp = jnp.zeros((64, d), X.dtype).at[:n].set(X)
    yp = jnp.zeros((64,), y.dtype).at[:n].set(y)
    total = jnp.zeros((d + 1,), X.dtype)
    for i in range(64):
        r = jnp.dot(Xp[i], w) + b - yp[i]
        g = jnp.concatenate([r * Xp[i], r[None]])
        g = g / jnp.maximum(1.0, jnp.linalg.norm(g) / clip_norm)
        total = total + jnp.where(i < jnp.array(n), g, 0.0)
    mean = total / n
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
