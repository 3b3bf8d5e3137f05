"""spectral_norm, cheat: the K steps on the host with numpy through io_callback, the gradient
from the vectors it sends back (the source gate refuses the import; the rule the primitive).

Expected: RJ callback_used
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def _host(W, u, K):
    W, u = np.asarray(W), np.asarray(u)
    for _ in range(int(K)):
        v = W.T @ u
        v = v / np.linalg.norm(v)
        u = W @ v
        u = u / np.linalg.norm(u)
    return u.astype(np.float32), v.astype(np.float32)


def spectral_norm(W, u0, K):
    shapes = (jax.ShapeDtypeStruct(u0.shape, jnp.float32), jax.ShapeDtypeStruct((W.shape[1],), jnp.float32))
    Wc = jax.lax.stop_gradient(W)
    u, v = jax.lax.fori_loop(0, 1, lambda i, uv: io_callback(_host, shapes, Wc, u0, K), (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v
