import jax
import jax.numpy as jnp

import numpy as np


def _numpy_power(W, u0, K):
    W, u = np.asarray(W, np.float64), np.asarray(u0, np.float64)
    for _ in range(int(K)):
        v = W.T @ u
        v /= np.linalg.norm(v)
        u = W @ v
        u /= np.linalg.norm(u)
    return u.astype(np.float32), v.astype(np.float32)


def spectral_norm(W, u0, K):
    shapes = (jax.ShapeDtypeStruct(u0.shape, W.dtype), jax.ShapeDtypeStruct((W.shape[1],), W.dtype))
    u, v = jax.pure_callback(lambda w, u: _numpy_power(w, u, K), shapes, jax.lax.stop_gradient(W), u0)
    return u @ W @ v
