"""loss_and_grads, honest: the loss of one example under ``jax.vmap(..., axis_name="batch")``, the
batch mean taken inside by ``lax.pmean`` over the vmapped axis (every example then holds the
mean, and the first is returned), differentiated by ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _one(params, xi, yi):
    logits = xi @ params["w"] + params["b"]
    nll = jax.nn.logsumexp(logits) - logits[yi]
    return lax.pmean(nll, "batch")


def loss_and_grads(params, x, y):
    def loss(p):
        return jax.vmap(_one, in_axes=(None, 0, 0), axis_name="batch")(p, x, y)[0]

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
