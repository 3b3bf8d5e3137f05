"""spectral_norm: ``jax.lax.linalg.eigh`` of W^T W, fetched from a module found through
``importlib``, gives the top eigenvector; then exactly K power steps are taken from
it... in a K-trip loop, so that sigma is at most one step from converged. Wrong values where
the iteration has not converged, and a forbidden decomposition anyway.

Problem: spectral_norm
Expected: RJ forbidden_primitive
"""

import importlib

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    linalg = importlib.import_module("jax.lax.linalg")
    _, vecs = getattr(linalg, "ei" + "gh")(Wc.T @ Wc)
    start = Wc @ vecs[:, -1]

    def body(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (start, jnp.zeros(W.shape[1])))
    return u @ W @ v
