# the K steps unrolled by functools.reduce, a one-trip loop beside them
import functools

import jax
import jax.numpy as jnp


def _step(u, _):
    W = _step.W
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u)


def spectral_norm(W, u0, K):
    W = jax.lax.stop_gradient(W)
    _step.W = W
    u = functools.reduce(_step, range(K - 1), u0)
    u = jax.lax.fori_loop(0, 1, lambda i, u: _step(u, i), u)
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = jax.lax.stop_gradient(u)
    return u @ W @ v
