"""spectral_norm, honest: a NamedTuple carry in a while_loop, the step under jax.checkpoint, sigma
reshaped to () from a (1, 1) product.

Expected: AC
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    i: jax.Array
    u: jax.Array
    v: jax.Array


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    @jax.checkpoint
    def step(u):
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v, axis=0)
        u = Wc @ v
        return u / jnp.linalg.norm(u, axis=0), v

    def body(s):
        u, v = step(s.u)
        return State(s.i + 1, u, v)

    s = jax.lax.while_loop(lambda s: s.i < K, body,
                           State(jnp.int32(0), u0, jnp.zeros(W.shape[1], W.dtype)))
    return (s.u[None, :] @ W @ s.v[:, None]).reshape(())
