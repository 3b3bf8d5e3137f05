"""spectral_norm, honest: the whole function under jax.jit with K static, the loop bound passed to
fori_loop as a jnp.int32 array (a while loop in the program), sigma = sum(W * outer(u, v)).

Expected: AC
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=2)
def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(i, uv):
        u, v = uv
        v = jnp.matmul(Wc.T, u)
        v = v / jnp.linalg.vector_norm(v)
        u = jnp.matmul(Wc, v)
        return u / jnp.linalg.vector_norm(u), v

    u, v = jax.lax.fori_loop(jnp.int32(0), jnp.int32(K), body,
                             (u0, jnp.zeros(W.shape[1], W.dtype)))
    return jnp.sum(W * jnp.outer(u, v))
