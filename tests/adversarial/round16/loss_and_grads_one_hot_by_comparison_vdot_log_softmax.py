"""loss_and_grads, honest: the one-hot written as a comparison ``y[:, None] == jnp.arange(k)``
cast to float, and the loss as ``-jnp.vdot(one_hot, log_softmax(logits)) / n`` (a product of
the log-probabilities with the one-hot, which the statement does not count); ``value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    hot = (y[:, None] == jnp.arange(logits.shape[1])).astype(logits.dtype)
    return -jnp.vdot(hot, jax.nn.log_softmax(logits)) / x.shape[0]


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
