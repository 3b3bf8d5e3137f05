"""spectral_norm, honest: a ``NamedTuple`` state ``(u, v)`` through ``lax.scan`` over
``jnp.arange(K)`` (the index unused), ``state._replace`` in the body; ``jax.lax.stop_gradient``
on the whole state.

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
    def body(st, _i):
        v = W.T @ st.u
        st = st._replace(v=v / jnp.linalg.norm(v))
        u = W @ st.v
        return st._replace(u=u / jnp.linalg.norm(u)), None

    st, _ = jax.lax.scan(body, Power(u0, jnp.zeros(W.shape[1], W.dtype)), jnp.arange(K))
    st = jax.lax.stop_gradient(st)
    return st.u @ W @ st.v
