"""spectral_norm, honest: the steps run in a fixed fori_loop of two trips, held by a loop of
K // 2 trips, the odd step in a loop of K % 2 trips; W stopped before the steps.

Expected: AC
"""
import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def one(_, uv):
        return _step(Wc, uv[0])

    def two(_, uv):
        return jax.lax.fori_loop(0, 2, one, uv)

    uv = jax.lax.fori_loop(0, K // 2, two, (u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.fori_loop(0, K % 2, one, uv)
    return u @ W @ v
