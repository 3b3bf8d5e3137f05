"""spectral_norm, cheat: an honest loop that also reports each step to the host with
jax.debug.callback (a callback all the same).

Expected: RJ callback_used
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(i, uv):
        u, _ = uv
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        jax.debug.callback(lambda *a: None, i, u)
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
