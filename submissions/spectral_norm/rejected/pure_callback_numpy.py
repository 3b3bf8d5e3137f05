"""spectral_norm, cheat: the iteration in NumPy through jax.pure_callback.

Expected: RJ callback_used
"""
import jax
import jax.numpy as jnp
import numpy as np


def spectral_norm(W, u0, K):
    def host(W, u0):
        u = np.asarray(u0)
        for _ in range(K):
            v = W.T @ u
            v = v / np.linalg.norm(v)
            u = W @ v
            u = u / np.linalg.norm(u)
        return u.astype(np.float32), v.astype(np.float32)

    shapes = (jax.ShapeDtypeStruct(u0.shape, jnp.float32), jax.ShapeDtypeStruct((W.shape[1],), jnp.float32))
    u, v = jax.pure_callback(host, shapes, jax.lax.stop_gradient(W), u0)
    u = jax.lax.fori_loop(0, K, lambda i, u: u, u)
    return u @ W @ v
