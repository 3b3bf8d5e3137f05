"""spectral_norm, honest: eight power steps written out in each trip of fori_loop(0, K // 8),
then a remainder loop fori_loop(0, K % 8) of one step a trip; stop_gradient on W first.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    def eight(i, uv):
        for t in range(8):
            uv = step(t, uv)
        return uv

    uv = jax.lax.fori_loop(0, K // 8, eight, (u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.fori_loop(0, K % 8, step, uv)
    return u @ W @ v
