"""per_example_clip twin: at concrete shapes, a Python loop over the n examples; with n a symbol,
a vmap that forgets to clip. The program run is the one with n a symbol: its values are wrong.

Expected: WA
"""

import jax
import jax.numpy as jnp


def _grad(w, b, x, t):
    r = jnp.dot(x, w) + b - t
    return jnp.concatenate([r * x, r[None]])


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = X.shape[0]
    if isinstance(n, int):
        gs = []
        for i in range(n):
            g = _grad(w, b, X[i], y[i])
            gs.append(g / jnp.maximum(1.0, jnp.linalg.norm(g) / clip_norm))
        mean = jnp.mean(jnp.stack(gs), axis=0)
    else:
        mean = jnp.mean(jax.vmap(_grad, in_axes=(None, None, 0, 0))(w, b, X, y), axis=0)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
