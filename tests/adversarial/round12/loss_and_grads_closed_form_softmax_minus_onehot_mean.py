"""loss_and_grads: closed form again, ``jax.nn.softmax(logits) - one_hot`` with the bias
gradient as ``jnp.mean(..., axis=0)`` and the weight gradient as ``x.T @ delta / n``; the
loss as the mean of ``logsumexp - logits[arange(n), y]``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def loss_and_grads(params, x, y):
    n = x.shape[0]
    logits = jnp.dot(x, params["w"]) + params["b"]
    rows = jnp.arange(n)
    loss = jnp.mean(logsumexp(logits, axis=1) - logits[rows, y])
    delta = jax.nn.softmax(logits, axis=1).at[rows, y].add(-1.0)
    return {"loss": loss, "grads": {"w": x.T @ delta / n, "b": jnp.mean(delta, axis=0)}}
