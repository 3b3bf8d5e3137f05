"""spectral_norm: a ``lax.while_loop`` whose state is a dataclass registered with
``jax.tree_util.register_dataclass``, the counter one of its fields.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:
    i: jax.Array
    u: jax.Array
    v: jax.Array


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(s):
        v = Wc.T @ s.u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return State(s.i + 1, u / jnp.linalg.norm(u), v)

    s = jax.lax.while_loop(lambda s: s.i < K, body,
                           State(jnp.int32(0), u0, jnp.zeros(W.shape[1], W.dtype)))
    return s.u @ W @ s.v
