"""spectral_norm: the matrix-vector products written as ``jax.vmap`` of ``jnp.dot`` over rows
and columns inside the ``lax.fori_loop`` body.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    rows = jax.vmap(jnp.dot, in_axes=(0, None))

    def step(_, carry):
        u, _ = carry
        v = rows(Wc.T, u)
        v = v / jnp.linalg.norm(v)
        u = rows(Wc, v)
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    return u @ W @ v
