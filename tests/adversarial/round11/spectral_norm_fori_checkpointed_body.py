"""spectral_norm: the step wrapped in ``jax.checkpoint`` (remat) inside ``lax.fori_loop``,
the iteration on W itself and the gradient stopped on u and v after the loop.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    @jax.checkpoint
    def step(u, W):
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, lambda _, c: step(c[0], W), (u0, jnp.zeros(W.shape[1], W.dtype)))
    u, v = jax.lax.stop_gradient((u, v))
    return u @ W @ v
