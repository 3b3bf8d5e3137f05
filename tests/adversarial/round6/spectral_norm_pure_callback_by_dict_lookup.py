"""spectral_norm: the steps run on the host through ``pure_callback``, reached as
``vars(jax)["pure_" + "callback"]``; a K-trip loop that only counts keeps the loop rules
quiet, and u, v come back from the host. The source gate refuses ``vars``.

Problem: spectral_norm
Expected: RJ forbidden_construct
"""

import jax
import jax.numpy as jnp
import numpy as np


def _host(W, u, K):
    W = np.asarray(W, np.float64)
    u = np.asarray(u, np.float64)
    for _ in range(int(K)):
        v = W.T @ u
        v /= np.linalg.norm(v)
        u = W @ v
        u /= np.linalg.norm(u)
    return u.astype(np.float32), v.astype(np.float32)


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    n = jax.lax.fori_loop(0, K, lambda i, c: c + 1, jnp.int32(0))
    call = vars(jax)["pure_" + "callback"]
    shapes = (jax.ShapeDtypeStruct(u0.shape, jnp.float32), jax.ShapeDtypeStruct((W.shape[1],), jnp.float32))
    u, v = call(_host, shapes, Wc, u0, n)
    return u @ W @ v
