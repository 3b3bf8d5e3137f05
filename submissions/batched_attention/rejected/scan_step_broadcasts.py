"""batched_attention, cheat: a scan over the batch whose every step builds the (t, s, d)
broadcast product of its example's queries and keys: the value one step makes is already too
large, whatever the scan stacks.

Expected: RJ intermediate_too_large
"""
import math

import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    scores = jnp.sum(q[:, None, :] * k[None, :, :], axis=-1) / math.sqrt(q.shape[-1])
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return weights @ v


def batched_attention(q, k, v, mask):
    return lax.scan(lambda c, example: (c, attend(*example)), 0.0, (q, k, v, mask))[1]
