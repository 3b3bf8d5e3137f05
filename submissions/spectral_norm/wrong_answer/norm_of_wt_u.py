"""spectral_norm, wrong: sigma as ||W^T u|| of the last u (the next step's norm, not u^T W v),
differentiated with u stopped.

Expected: WA wrong_value
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(_, u):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u)

    u = jax.lax.fori_loop(0, K, body, u0)
    return jnp.linalg.norm(W.T @ u)
