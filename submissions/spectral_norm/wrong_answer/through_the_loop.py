import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    # differentiates through the K steps: right only where the iteration has converged
    def body(_, carry):
        u, _v = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
