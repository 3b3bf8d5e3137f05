import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    # no stop_gradient: the derivative goes through the K steps
    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
