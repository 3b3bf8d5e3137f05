"""loss_and_grads: an optax-style ``softmax_cross_entropy_with_integer_labels`` written out
(``logsumexp`` of the logits less the label's logit, picked by ``jnp.take_along_axis``), its
mean differentiated by ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def softmax_cross_entropy_with_integer_labels(logits, labels):
    label_logits = jnp.take_along_axis(logits, labels[..., None], axis=-1)[..., 0]
    log_normalizers = jax.nn.logsumexp(logits, axis=-1)
    return log_normalizers - label_logits


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    return softmax_cross_entropy_with_integer_labels(logits, y).mean()


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
