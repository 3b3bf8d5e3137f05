"""spectral_norm: ``lax.scan(step, carry, None, length=K)`` over W itself, u and v stopped after
the loop (so no cotangent reaches the scan), sigma by ``u @ W @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(carry, _):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return (u / jnp.linalg.norm(u), v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), xs=None, length=K)
    u, v = jax.lax.stop_gradient((u, v))
    return u @ W @ v
