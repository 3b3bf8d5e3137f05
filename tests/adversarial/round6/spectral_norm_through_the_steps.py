"""spectral_norm: the honest loop with no ``stop_gradient`` anywhere, so ``jax.vjp``
differentiates through the K steps: right values, a wrong derivative where the iteration has
not converged.

Problem: spectral_norm
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(_, uv):
        u, _ = uv
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v
