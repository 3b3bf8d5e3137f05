import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    u = u0 / jnp.linalg.norm(u0)

    def step(_, v):
        # only v is updated, from u0 every time: u never follows W v
        v = Wc.T @ u
        return v / jnp.linalg.norm(v)

    v = jax.lax.fori_loop(0, K, step, jnp.zeros(W.shape[1], W.dtype))
    return u @ W @ v
