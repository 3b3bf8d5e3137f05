"""spectral_norm, honest: two steps to a trip, ``fori_loop(0, K // 2, ...)``, and one more step
written after the loop when K is odd (K is a Python int, so the branch is on a number).

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def two(_, uv):
        u, _ = _step(Ws, uv[0])
        return _step(Ws, u)

    u, v = jax.lax.fori_loop(0, K // 2, two, (u0, jnp.zeros(W.shape[1], W.dtype)))
    if K % 2:
        u, v = _step(Ws, u)
    return u @ W @ v
