"""masked_mean_xent: ``jax.vmap`` over the sequences of a per-sequence function (a
``functools.partial`` with the axis bound), ``jax.scipy.special.logsumexp``, the valid positions
picked with ``jnp.where`` on an ``arange`` of the sequence's own length, summed per sequence and
divided once by ``lengths.sum()``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def seq_total(logits, labels, length, axis):
    lse = logsumexp(logits, axis=axis)
    tgt = jnp.take_along_axis(logits, labels[:, None], axis=axis)[:, 0]
    valid = jnp.arange(labels.shape[0]) < length
    return jnp.sum(jnp.where(valid, lse - tgt, 0.0))


def masked_mean_xent(logits, labels, lengths):
    totals = jax.vmap(partial(seq_total, axis=-1))(logits, labels, lengths)
    return jnp.sum(totals) / lengths.sum().astype(jnp.float32)
