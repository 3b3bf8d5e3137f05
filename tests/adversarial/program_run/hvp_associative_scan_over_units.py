"""hvp_tanh, honest: each unit's term of the Hessian-vector product, W_i (f''(W_i x) (W_i . v)),
summed over the m units by ``jax.lax.associative_scan`` (m is a number; only d is a symbol).

Problem: hvp_tanh
Expected: AC
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    th = jnp.tanh(W @ x)
    terms = (-2.0 * th * (1.0 - th ** 2) * (W @ v))[:, None] * W
    return jax.lax.associative_scan(jnp.add, terms, axis=0)[-1]
