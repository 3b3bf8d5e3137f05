"""loss_and_grads: the dict turned into a ``typing.NamedTuple`` of ``w`` and ``b``, the loss
differentiated with ``jax.grad(..., has_aux=True)`` returning the loss again as its auxiliary
value, the gradient turned back into a dict with ``_asdict()``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Linear(NamedTuple):
    w: jax.Array
    b: jax.Array


def _loss(p: Linear, x, y):
    log_probs = jax.nn.log_softmax(x @ p.w + p.b, axis=-1)
    nll = -jnp.take_along_axis(log_probs, jnp.expand_dims(y, -1), axis=-1).squeeze(-1)
    value = nll.mean()
    return value, value


def loss_and_grads(params, x, y):
    grads, loss = jax.grad(_loss, has_aux=True)(Linear(**params), x, y)
    return {"loss": loss, "grads": dict(grads._asdict())}
