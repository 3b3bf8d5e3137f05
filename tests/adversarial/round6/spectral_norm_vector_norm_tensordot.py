"""spectral_norm: the array-API ``jnp.linalg.vector_norm`` for the vectors' lengths,
``jnp.tensordot`` for the products, a ``lax.scan`` over ``jnp.arange(K)`` whose steps ignore
the index, and sigma from u and v passed through ``stop_gradient`` together as a tuple.

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(carry, _):
        u, _ = carry
        v = jnp.tensordot(u, W, axes=1)
        v = v / jnp.linalg.vector_norm(v)
        u = jnp.tensordot(W, v, axes=1)
        return (u / jnp.linalg.vector_norm(u), v), None

    (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), jnp.arange(K))
    u, v = jax.lax.stop_gradient((u, v))
    return jnp.tensordot(u, jnp.tensordot(W, v, axes=1), axes=1)
