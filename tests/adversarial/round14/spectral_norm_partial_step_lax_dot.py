"""spectral_norm: the step a ``jax.tree_util.Partial`` over the stopped W passed to ``fori_loop``,
products by ``lax.dot`` (W^T by ``lax.transpose``), sigma by ``lax.dot`` of the stopped
vectors with the live W.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _step(W, i, carry):
    u, _ = carry
    v = lax.dot(lax.transpose(W, (1, 0)), u)
    v = v / jnp.sqrt(jnp.sum(v ** 2))
    u = lax.dot(W, v)
    return u / jnp.sqrt(jnp.sum(u ** 2)), v


def spectral_norm(W, u0, K):
    step = jax.tree_util.Partial(_step, lax.stop_gradient(W))
    u, v = lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], jnp.float32)))
    return lax.dot(u, lax.dot(W, v))
