"""spectral_norm: u0 normalised before the loop (the iteration's v does not change), a
``lax.scan`` of K trips with ``unroll=4``, u and v stopped after it.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(carry, _):
        v = W.T @ carry[0]
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return (u / jnp.linalg.norm(u), v), None

    init = (u0 / jnp.linalg.norm(u0), jnp.zeros(W.shape[1], W.dtype))
    (u, v), _ = jax.lax.scan(step, init, length=K, unroll=4)
    return jax.lax.stop_gradient(u) @ W @ jax.lax.stop_gradient(v)
