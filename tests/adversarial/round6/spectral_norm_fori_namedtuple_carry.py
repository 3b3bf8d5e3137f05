"""spectral_norm: a ``fori_loop`` whose carry is a ``NamedTuple`` of u and v, the iteration run
on ``stop_gradient(W)`` and sigma taken on W itself with ``jnp.dot`` twice.

Problem: spectral_norm
Expected: AC
Cases: all
"""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class PowerState(NamedTuple):
    u: jax.Array
    v: jax.Array


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, state):
        v = Wc.T @ state.u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        u = u / jnp.linalg.norm(u)
        return PowerState(u, v)

    init = PowerState(u0, jnp.zeros(W.shape[1], W.dtype))
    final = jax.lax.fori_loop(0, K, step, init)
    return jnp.dot(final.u, jnp.dot(W, final.v))
