"""spectral_norm: the whole iteration under ``jax.jit`` with K static, a ``lax.while_loop``
inside whose body is itself a jitted function.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def body(state):
    i, Wc, u, _ = state
    v = Wc.T @ u
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    return i + 1, Wc, u / jnp.linalg.norm(u), v


@partial(jax.jit, static_argnums=2)
def iterate(Wc, u0, K):
    init = (0, Wc, u0, jnp.zeros(Wc.shape[1], Wc.dtype))
    _, _, u, v = jax.lax.while_loop(lambda s: s[0] < K, body, init)
    return u, v


def spectral_norm(W, u0, K):
    u, v = iterate(jax.lax.stop_gradient(W), u0, K)
    return u @ W @ v
