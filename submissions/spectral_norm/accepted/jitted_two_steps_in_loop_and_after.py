"""spectral_norm, honest: a jitted function running two steps in a fixed fori_loop of two trips,
called at each of K // 2 - 1 trips of a fori_loop and once after it, the odd step in a loop of
K % 2 trips; W stopped before the steps.

Expected: AC
"""
import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


@jax.jit
def _two(Wc, uv):
    return jax.lax.fori_loop(0, 2, lambda _, uv: _step(Wc, uv[0]), uv)


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    uv = (u0, jnp.zeros(W.shape[1], W.dtype))
    if K >= 2:
        uv = jax.lax.fori_loop(0, K // 2 - 1, lambda _, uv: _two(Wc, uv), uv)
        uv = _two(Wc, uv)
    u, v = jax.lax.fori_loop(0, K % 2, lambda _, uv: _step(Wc, uv[0]), uv)
    return u @ W @ v
