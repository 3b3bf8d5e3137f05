"""spectral_norm: a ``lax.while_loop`` whose test joins ``i < K`` with a guard that stops on a
NaN, ``jnp.logical_and(i < K, jnp.all(jnp.isfinite(u)))``: on every allowed input the guard
holds, so the loop runs its K trips.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def cond(state):
        i, u, _ = state
        return jnp.logical_and(i < K, jnp.all(jnp.isfinite(u)))

    def body(state):
        i, u, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return i + 1, u / jnp.linalg.norm(u), v

    _, u, v = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
