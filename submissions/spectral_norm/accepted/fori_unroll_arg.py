"""spectral_norm, honest: fori_loop(..., unroll=4) (only tells the compiler how many steps to put
in one iteration) with the iteration on a stop_gradient copy of W.

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

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)), unroll=4)
    return u @ W @ v
