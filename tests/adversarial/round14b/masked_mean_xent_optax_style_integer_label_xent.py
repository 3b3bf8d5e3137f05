"""masked_mean_xent: an optax-like ``softmax_cross_entropy_with_integer_labels`` written by hand
(logits shifted by their ``stop_gradient``-ed max, ``log`` of the summed ``exp``, the label's
logit by a one-hot ``jnp.sum``), followed by a masked mean with weights.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def softmax_cross_entropy_with_integer_labels(logits, labels):
    shifted = logits - jax.lax.stop_gradient(logits.max(axis=-1, keepdims=True))
    log_norm = jnp.log(jnp.sum(jnp.exp(shifted), axis=-1))
    label_logit = jnp.sum(shifted * jax.nn.one_hot(labels, logits.shape[-1], dtype=shifted.dtype), -1)
    return log_norm - label_logit


def masked_mean_xent(logits, labels, lengths):
    per_token = softmax_cross_entropy_with_integer_labels(logits, labels)
    weights = jnp.arange(labels.shape[1]) < lengths[:, None]
    return jnp.sum(per_token, where=weights) / jnp.count_nonzero(weights)
