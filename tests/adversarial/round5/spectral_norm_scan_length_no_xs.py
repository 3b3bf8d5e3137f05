"""spectral_norm: ``jax.lax.scan`` with no xs and ``length=K``, the iteration on a copy of W
whose gradient is stopped, sigma from ``jnp.vdot``.

Problem: spectral_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def step(carry, _):
        u, _ = carry
        v = Ws.T @ u
        v = v / jnp.linalg.norm(v)
        u = Ws @ v
        u = u / jnp.linalg.norm(u)
        return (u, v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros_like(W[0])), None, length=K)
    return jnp.vdot(u, W @ v)
