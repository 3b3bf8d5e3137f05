"""spectral_norm: the power iteration as ``jax.lax.scan(step, state, None, length=K)`` over a
``typing.NamedTuple`` state ``(u, v)``, the iteration run on ``W`` itself and its vectors
stopped afterwards, sigma ``sg(u) @ W @ sg(v)``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Power(NamedTuple):
    u: jax.Array
    v: jax.Array


def spectral_norm(W, u0, K):
    def step(state, _):
        v = W.T @ state.u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return Power(u / jnp.linalg.norm(u), v), None

    init = Power(u0, jnp.zeros((W.shape[1],), W.dtype))
    final, _ = jax.lax.scan(step, init, None, length=K)
    sg = jax.lax.stop_gradient
    return sg(final.u) @ W @ sg(final.v)
