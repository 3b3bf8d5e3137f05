"""spectral_norm, cheat: jnp.linalg.norm(W, 2), the matrix 2-norm (an SVD), gated on the last
step so that the loop still computes the output.

Expected: RJ forbidden_primitive
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

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jnp.where(K > 40, jnp.linalg.norm(W, 2), u @ W @ v)
