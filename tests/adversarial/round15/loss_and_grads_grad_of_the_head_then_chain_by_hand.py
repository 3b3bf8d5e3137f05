"""loss_and_grads, honest: the logits computed once, ``jax.value_and_grad`` of the loss as a
function of the logits alone (the head), and the parameters' gradient by the chain rule by hand:
``x.T @ dlogits`` and the column sums.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _head(logits, y):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    logits = x @ params["w"] + params["b"]
    loss, dlogits = jax.value_and_grad(_head)(logits, y)
    return {"loss": loss, "grads": {"w": x.T @ dlogits, "b": dlogits.sum(axis=0)}}
