# differentiates through all K steps: no stop_gradient
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(i, uv):
        u, v = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v
    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v
