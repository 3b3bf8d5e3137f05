"""masked_mean_xent: a helper written like optax's ``softmax_cross_entropy_with_integer_labels``
(logits minus their max, ``log(sum(exp))`` less the label's shifted logit via ``jnp.take_along_axis``),
the mask by ``jnp.less`` of an ``arange`` and the lengths, the padding removed by
``jnp.where(mask[..., None], logits, 0)``; the mean as ``jnp.average`` with the mask as weights.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def softmax_cross_entropy_with_integer_labels(logits, labels):
    shifted = logits - jax.lax.stop_gradient(logits.max(axis=-1, keepdims=True))
    label_logits = jnp.take_along_axis(shifted, labels[..., None], axis=-1)[..., 0]
    return jnp.log(jnp.exp(shifted).sum(axis=-1)) - label_logits


def masked_mean_xent(logits, labels, lengths):
    mask = jnp.less(jnp.arange(logits.shape[1])[None, :], lengths[:, None])
    losses = softmax_cross_entropy_with_integer_labels(
        jnp.where(mask[..., None], logits, 0.0), labels)
    return jnp.average(losses, weights=mask.astype(jnp.float32))
