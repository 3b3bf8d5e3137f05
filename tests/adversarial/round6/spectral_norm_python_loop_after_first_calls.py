"""spectral_norm: a module-level call counter: the first few calls (when the judge traces the
program for its rules) take the ``fori_loop``; later calls run the K steps in a Python loop,
unrolled into the program. Right values, but a program that grows with K wherever the judge
traces it again to run it.

Problem: spectral_norm
Expected: RJ
Cases: all
"""

import jax
import jax.numpy as jnp

_CALLS = [0]


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    _CALLS[0] += 1
    Wc = jax.lax.stop_gradient(W)
    if _CALLS[0] <= 8:
        u, v = jax.lax.fori_loop(0, K, lambda i, uv: _step(Wc, uv[0]), (u0, jnp.zeros(W.shape[1])))
    else:
        u, v = u0, None
        for _ in range(K):
            u, v = _step(Wc, u)
    return u @ W @ v
