"""spectral_norm, honest: a frozen ``dataclasses.dataclass`` state ``(i, u, v)`` registered by
``jax.tree_util.register_dataclass`` (all three data fields), stepped by ``dataclasses.replace``
inside ``lax.while_loop``; u and v stopped after the loop.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp
from jax import lax


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Power:
    i: jax.Array
    u: jax.Array
    v: jax.Array


def _unit(a):
    return a / jnp.linalg.norm(a)


def spectral_norm(W, u0, K):
    def body(s):
        v = _unit(W.T @ s.u)
        return dataclasses.replace(s, i=s.i + 1, u=_unit(W @ v), v=v)

    start = Power(jnp.int32(0), u0, jnp.zeros(W.shape[1:], W.dtype))
    end = lax.while_loop(lambda s: s.i < K, body, start)
    u, v = lax.stop_gradient(end.u), lax.stop_gradient(end.v)
    return u @ (W @ v)
