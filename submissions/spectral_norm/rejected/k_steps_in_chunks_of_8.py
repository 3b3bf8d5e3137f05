"""spectral_norm, cheat: a fori_loop over K // 8 trips whose body runs 8 steps in Python, the rest
K % 8 steps in Python too: the program grows with K % 8 only, bounded by 8 copies.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def one(uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    def eight(_, uv):
        for _ in range(8):
            uv = one(uv)
        return uv

    uv = jax.lax.fori_loop(0, K // 8, eight, (u0, jnp.zeros(W.shape[1], W.dtype)))
    for _ in range(K % 8):
        uv = one(uv)
    u, v = uv
    return u @ W @ v
