"""masked_mean_xent: a Keras-style ``SparseCategoricalCrossentropy`` loss class with
``from_logits=True`` and an ``enum.Enum`` reduction (``SUM_OVER_BATCH_SIZE`` over the weights),
called with a float ``sample_weight`` from the lengths; the padded logits zeroed first.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import enum

import jax
import jax.numpy as jnp


class Reduction(enum.Enum):
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"


class SparseCategoricalCrossentropy:
    def __init__(self, from_logits=False, reduction=Reduction.SUM_OVER_BATCH_SIZE):
        self.from_logits = from_logits
        self.reduction = reduction

    def __call__(self, y_true, y_pred, sample_weight):
        if self.from_logits:
            logp = jax.nn.log_softmax(y_pred)
        else:
            logp = jnp.log(y_pred)
        onehot = jax.nn.one_hot(y_true, y_pred.shape[-1], dtype=y_pred.dtype)
        per_token = -jnp.sum(onehot * logp, axis=-1) * sample_weight
        if self.reduction is Reduction.NONE:
            return per_token
        total = jnp.sum(per_token)
        if self.reduction is Reduction.SUM:
            return total
        return total / jnp.sum(sample_weight)


def masked_mean_xent(logits, labels, lengths):
    positions = jnp.arange(logits.shape[1])
    weight = (positions[jnp.newaxis, :] < lengths[:, jnp.newaxis]).astype(jnp.float32)
    clean = logits * weight[..., None]
    return SparseCategoricalCrossentropy(from_logits=True)(labels, clean, weight)
