"""spectral_norm, wrong: sigma computed from the stopped matrix too, so its gradient is zero.

Expected: WA wrong_vjp
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    W = jax.lax.stop_gradient(W)

    def body(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
