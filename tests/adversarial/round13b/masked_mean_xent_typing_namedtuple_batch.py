"""masked_mean_xent: the batch wrapped in a ``typing.NamedTuple`` with a ``mask`` method, the
per-token loss by ``optax``'s formula written by hand (``logsumexp`` minus the target logit), the
mean over the valid tokens with ``jnp.sum(..., where=mask)``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Batch(NamedTuple):
    logits: jax.Array
    labels: jax.Array
    lengths: jax.Array

    def mask(self) -> jax.Array:
        return jnp.arange(self.logits.shape[1])[None, :] < self.lengths[:, None]


def softmax_cross_entropy_with_integer_labels(logits, labels):
    target = jnp.take_along_axis(logits, labels[..., None], axis=-1)[..., 0]
    return jax.nn.logsumexp(logits, axis=-1) - target


def masked_mean_xent(logits, labels, lengths):
    batch = Batch(logits, labels, lengths)
    mask = batch.mask()
    nll = softmax_cross_entropy_with_integer_labels(batch.logits, batch.labels)
    return jnp.sum(nll, where=mask) / jnp.sum(mask)
