"""loss_and_grads: the loss written per example under ``jax.vmap(..., axis_name="batch")`` (the
logits of one example by ``x_i @ w + b``, batched by vmap into one product), its mean over the
batch by ``lax.pmean`` over the vmapped axis, the whole differentiated by
``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _example_loss(params, x_i, y_i):
    logits = x_i @ params["w"] + params["b"]
    nll = jax.nn.logsumexp(logits) - logits[y_i]
    return lax.pmean(nll, axis_name="batch")


def _loss(params, x, y):
    per = jax.vmap(_example_loss, in_axes=(None, 0, 0), axis_name="batch")(params, x, y)
    return per[0]


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
