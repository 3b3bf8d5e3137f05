"""masked_mean_xent, honest: one-hot labels and ``logsumexp``, the mean over valid positions
from ``jnp.sum`` of a float mask.

Problem: masked_mean_xent
Expected: AC
"""

import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    hot = jax.nn.one_hot(labels, logits.shape[-1], dtype=logits.dtype)
    nll = jax.nn.logsumexp(logits, axis=-1) - jnp.sum(hot * logits, axis=-1)
    mask = (jnp.arange(logits.shape[1])[None, :] < lengths[:, None]).astype(logits.dtype)
    return jnp.sum(nll * mask) / jnp.sum(mask)
