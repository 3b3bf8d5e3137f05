"""loss_and_grads: the params flattened to one vector with
``jax.flatten_util.ravel_pytree``, ``jax.value_and_grad`` with respect to the vector, the
gradient unraveled back into the dict.

Problem: loss_and_grads
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def loss_and_grads(params, x, y):
    flat, unravel = ravel_pytree(params)

    def loss_fn(flat):
        p = unravel(flat)
        logp = jax.nn.log_softmax(x @ p["w"] + p["b"])
        return -jnp.mean(logp[jnp.arange(x.shape[0]), y])

    loss, g = jax.value_and_grad(loss_fn)(flat)
    return {"loss": loss, "grads": unravel(g)}
