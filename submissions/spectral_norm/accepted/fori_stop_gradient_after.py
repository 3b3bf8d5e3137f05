import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(i, carry):
        u, v = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.stop_gradient((u, v))
    return u @ W @ v
