"""spectral_norm: ``jax.lax.scan`` with ``length=K`` and no ``xs`` over a step wrapped in
``jax.checkpoint``, the vectors stopped after the loop, ``sigma`` as ``u @ W @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    @jax.checkpoint
    def step(carry, _):
        u, _v = carry
        v = W.T @ u
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = W @ v
        u = u / jnp.sqrt(jnp.sum(u * u))
        return (u, v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros_like(W[0])), None, length=K)
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return u @ W @ v
