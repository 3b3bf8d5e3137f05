"""loss_and_grads: the one-hot as ``jnp.take(jnp.eye(k), y, axis=0)``, the loss a sum divided
by ``x.shape[0]``, under ``jax.jit`` with ``static_argnames="reduction"``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def _loss(params, x, y, reduction):
    logits = x @ params["w"] + params["b"]
    hot = jnp.take(jnp.eye(logits.shape[1], dtype=logits.dtype), y, axis=0)
    total = -jnp.sum(hot * jax.nn.log_softmax(logits, axis=-1))
    return total / x.shape[0] if reduction == "mean" else total


@partial(jax.jit, static_argnames="reduction")
def _value_and_grad(params, x, y, reduction):
    return jax.value_and_grad(_loss)(params, x, y, reduction)


def loss_and_grads(params, x, y):
    loss, grads = _value_and_grad(params, x, y, reduction="mean")
    return {"loss": loss, "grads": grads}
