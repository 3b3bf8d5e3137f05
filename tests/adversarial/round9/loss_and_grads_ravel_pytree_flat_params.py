"""loss_and_grads: the parameters flattened with ``jax.flatten_util.ravel_pytree`` into one vector,
unravelled inside the loss, ``jax.value_and_grad`` of the flat vector, and the gradient
unravelled back into the dict.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def loss_and_grads(params, x, y):
    flat, unravel = ravel_pytree(params)

    def loss_fn(theta):
        p = unravel(theta)
        logits = x @ p["w"] + p["b"]
        logp = logits - jax.scipy.special.logsumexp(logits, axis=-1, keepdims=True)
        return -jnp.mean(logp[jnp.arange(y.shape[0]), y])

    loss, g = jax.value_and_grad(loss_fn)(flat)
    return {"loss": loss, "grads": unravel(g)}
