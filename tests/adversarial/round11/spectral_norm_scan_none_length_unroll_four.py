"""spectral_norm: ``lax.scan`` over ``xs=None`` with ``length=K`` and ``unroll=4``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(carry, _):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return (u / jnp.linalg.norm(u), v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=K,
                             unroll=4)
    return u @ W @ v
