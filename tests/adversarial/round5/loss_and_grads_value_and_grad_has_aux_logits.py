"""loss_and_grads: ``jax.value_and_grad(..., has_aux=True)`` with the logits as aux, the
per-example loss as ``logsumexp - take_along_axis``.

Problem: loss_and_grads
Expected: AC
"""

import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    picked = jnp.take_along_axis(logits, y[:, None], axis=-1)[:, 0]
    return jnp.mean(jax.nn.logsumexp(logits, axis=-1) - picked), logits


def loss_and_grads(params, x, y):
    (loss, _), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, x, y)
    return {"loss": loss, "grads": grads}
