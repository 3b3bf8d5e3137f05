import jax
import jax.numpy as jnp
import numpy as np


def _host(w, b, X, y, clip_norm):
    r = X @ w + b - y
    g = np.concatenate([r[:, None] * X, r[:, None]], axis=1)
    g = g / np.maximum(1.0, np.linalg.norm(g, axis=1) / clip_norm)[:, None]
    return g.mean(axis=0).astype(np.float32)


def clipped_mean_grad(w, b, X, y, clip_norm):
    mean = jax.pure_callback(lambda *a: _host(*a, clip_norm),
                             jax.ShapeDtypeStruct((w.shape[0] + 1,), jnp.float32), w, b, X, y)
    return {"grad_w": mean[:-1], "grad_b": mean[-1]}
