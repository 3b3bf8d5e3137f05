"""spectral_norm: a student's cache of one ``jax.jit`` function per K in a module-level dict
(state kept across calls, but each entry is the same honest program for its K).

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp

_compiled = {}


def _make(K):
    def run(W, u0):
        Wc = jax.lax.stop_gradient(W)

        def step(_, carry):
            u, _ = carry
            v = Wc.T @ u
            v = v / jnp.linalg.norm(v)
            u = Wc @ v
            return u / jnp.linalg.norm(u), v

        u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
        return u @ W @ v

    return jax.jit(run)


def spectral_norm(W, u0, K):
    if K not in _compiled:
        _compiled[K] = _make(K)
    return _compiled[K](W, u0)
