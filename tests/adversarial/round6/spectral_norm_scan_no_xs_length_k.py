"""spectral_norm: ``lax.scan`` with ``xs=None`` and ``length=K``, a (u, v) carry and no stacked
output, then ``stop_gradient`` on u and v after the loop and sigma by ``jnp.vdot``.

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(carry, _):
        u, _v = carry
        v = W.T @ u
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = W @ v
        u = u / jnp.sqrt(jnp.sum(u * u))
        return (u, v), None

    (u, v), _ = jax.lax.scan(body, (u0, jnp.zeros_like(W[0])), xs=None, length=K)
    u = jax.lax.stop_gradient(u)
    v = jax.lax.stop_gradient(v)
    return jnp.vdot(u, W @ v)
