import jax
import jax.numpy as jnp


def _normalize(a):
    return a / jnp.linalg.norm(a)


def spectral_norm(W, u0, K):
    def step(_, carry):
        u, _v = carry
        v = _normalize(W.T @ u)
        u = _normalize(W @ v)
        return u, v

    v0 = jnp.zeros(W.shape[1], W.dtype)
    u, v = jax.lax.fori_loop(0, K, step, (u0, v0))
    u = jax.lax.stop_gradient(u)
    v = jax.lax.stop_gradient(v)
    return u @ W @ v
