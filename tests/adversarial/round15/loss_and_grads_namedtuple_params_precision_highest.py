"""loss_and_grads, honest: the dict turned into a ``NamedTuple`` of parameters, differentiated
as a pytree by ``jax.value_and_grad`` and turned back into a dict; the logits by
``jnp.matmul(..., precision=jax.lax.Precision.HIGHEST)``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Params(NamedTuple):
    w: jax.Array
    b: jax.Array


def _loss(p: Params, x, y):
    logits = jnp.matmul(x, p.w, precision=jax.lax.Precision.HIGHEST) + p.b
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(logp[jnp.arange(x.shape[0]), y])


def loss_and_grads(params, x, y):
    loss, g = jax.value_and_grad(_loss)(Params(params["w"], params["b"]), x, y)
    return {"loss": loss, "grads": g._asdict()}
