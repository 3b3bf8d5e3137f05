"""spectral_norm: a ``lax.while_loop`` with an explicit counter in its state and vectors
normalised by ``lax.rsqrt`` of their squared length; sigma with ``jnp.einsum``.

Problem: spectral_norm
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp
from jax import lax


def _unit(x):
    return x * lax.rsqrt(jnp.sum(x * x))


def spectral_norm(W, u0, K):
    Ws = lax.stop_gradient(W)

    def cond(state):
        i, _, _ = state
        return i < K

    def body(state):
        i, u, _ = state
        v = _unit(jnp.matmul(u, Ws))
        u = _unit(jnp.matmul(Ws, v))
        return i + 1, u, v

    _, u, v = lax.while_loop(cond, body, (jnp.int32(0), u0, jnp.zeros(W.shape[1], jnp.float32)))
    return jnp.einsum("i,ij,j->", u, W, v)
