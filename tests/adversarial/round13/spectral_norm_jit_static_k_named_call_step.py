"""spectral_norm: the work in a ``jax.jit`` with K static (``static_argnums=2``), the step a
``jax.named_call``, the loop a ``fori_loop`` on the stopped W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def _step(W, u):
    v = W.T @ u
    v = v / jnp.linalg.norm(v)
    u = W @ v
    return u / jnp.linalg.norm(u), v


@partial(jax.jit, static_argnums=2)
def _impl(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    step = jax.named_call(_step, name="power_step")
    u, v = jax.lax.fori_loop(0, K, lambda _, c: step(Wc, c[0]), (u0, jnp.zeros(W.shape[1])))
    return u @ W @ v


def spectral_norm(W, u0, K):
    return _impl(W, u0, K)
