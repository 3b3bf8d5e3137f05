import jax
import jax.numpy as jnp


def normalize(x):
    return x / jnp.linalg.norm(x)


def spectral_norm(W, u0, K):
    def step(i, uv):
        u, _ = uv
        v = normalize(W.T @ u)
        return normalize(W @ v), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return jnp.dot(u, jnp.dot(W, v))
