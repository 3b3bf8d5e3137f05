"""spectral_norm: ``fori_loop`` with its upper bound made a JAX array (``jnp.asarray(K)``), so
that JAX emits a ``while`` loop rather than a ``scan``; sigma reshaped to () by hand.

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def body(i, uv):
        u, v = uv
        v = jnp.dot(u, W)
        v = v / jnp.sqrt(jnp.dot(v, v))
        u = jnp.dot(W, v)
        u = u / jnp.sqrt(jnp.dot(u, u))
        return u, v

    u, v = jax.lax.fori_loop(0, jnp.asarray(K), body, (u0, jnp.zeros((W.shape[1],), jnp.float32)))
    u, v = jax.tree_util.tree_map(jax.lax.stop_gradient, (u, v))
    return jnp.reshape(jnp.dot(jnp.dot(u, W), v), ())
