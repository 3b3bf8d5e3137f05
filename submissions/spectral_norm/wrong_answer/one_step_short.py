import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(_, carry):
        u, _v = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    first = Wc.T @ u0
    u, v = jax.lax.fori_loop(1, K, body, (u0, first / jnp.linalg.norm(first)))
    return u @ W @ v
