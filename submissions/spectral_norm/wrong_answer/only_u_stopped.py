"""spectral_norm, wrong: stops the gradient of u only, so v carries W's derivative through the K
steps (W^T u is along the next step's v, not this one's: other numbers before convergence).

Expected: WA wrong_vjp
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jax.lax.stop_gradient(u) @ W @ v
