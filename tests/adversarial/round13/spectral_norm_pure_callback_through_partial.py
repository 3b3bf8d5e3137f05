"""spectral_norm, cheat: the K steps run on the host, in NumPy, through a ``pure_callback``
reached by a ``functools.partial`` kept in a dict (never spelled at the call), sigma and its
gradient then u^T W v with the host's u and v; a light ``fori_loop`` of K trips beside it.

Problem: spectral_norm
Expected: RJ callback_used
Cases: all
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np


def _host(W, u, K):
    W, u = np.asarray(W), np.asarray(u)
    v = np.zeros(W.shape[1], np.float32)
    for _ in range(K):
        v = W.T @ u
        v = v / np.linalg.norm(v)
        u = W @ v
        u = u / np.linalg.norm(u)
    return np.concatenate([u, v]).astype(np.float32)


TOOLS = {"run": functools.partial(jax.pure_callback, vmap_method="sequential")}


def spectral_norm(W, u0, K):
    m, n = W.shape
    shape = jax.ShapeDtypeStruct((m + n,), jnp.float32)
    uv = TOOLS["run"](functools.partial(_host, K=K), shape, jax.lax.stop_gradient(W), u0)
    u, v = uv[:m], uv[m:]
    u = jax.lax.fori_loop(0, K, lambda _, a: a * 1.0, u)
    return u @ W @ v
