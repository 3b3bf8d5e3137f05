"""batched_attention: the scale as a Python float from the concrete d (``q.shape[-1] ** -0.5``),
``jnp.matmul`` with ``precision=HIGHEST``, ``jax.nn.softmax`` with ``where=`` and the masked
weights zeroed, vmapped with ``in_axes=0``.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    scale = q.shape[-1] ** -0.5
    scores = jnp.matmul(q, k.T, precision=lax.Precision.HIGHEST) * scale
    weights = jax.nn.softmax(scores, axis=-1, where=mask)
    weights = jnp.where(mask, weights, 0.0)
    return jnp.matmul(weights, v, precision=lax.Precision.HIGHEST)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=0)(q, k, v, mask)
