"""spectral_norm, refused: the student special-cases K == 1 (a Python int) by writing the one
step out with no loop, and runs a ``fori_loop`` otherwise: at K = 1 the traced program has no
scan or while, which the statement asks of every program ("run the K steps in a loop
primitive"; ``fori_loop(0, K - 1)`` after a first step written out, or a loop of one trip,
would do).

Problem: spectral_norm
Expected: RJ missing_primitive
"""
import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wd = jax.lax.stop_gradient(W)
    if K == 1:
        u, v = _step(Wd, u0)
    else:
        u, v = jax.lax.fori_loop(0, K, lambda _, uv: _step(Wd, uv[0]), (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v
