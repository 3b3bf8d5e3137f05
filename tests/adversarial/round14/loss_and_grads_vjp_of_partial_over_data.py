"""loss_and_grads: ``jax.vjp`` of ``functools.partial(loss, x=x, y=y)`` at the params, pulled back
at ``jnp.ones_like(loss)``; the loss by ``optax``-style log-softmax and ``take_along_axis``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def _loss(params, *, x, y):
    logp = jax.nn.log_softmax(x @ params["w"] + params["b"])
    return -jnp.take_along_axis(logp, jnp.expand_dims(y, 1), axis=1).mean()


def loss_and_grads(params, x, y):
    loss, pull = jax.vjp(partial(_loss, x=x, y=y), params)
    (grads,) = pull(jnp.ones_like(loss))
    return {"loss": loss, "grads": grads}
