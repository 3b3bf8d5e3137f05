"""loss_and_grads, honest: the gradient written by hand from the logits computed once: softmax
by ``exp(l - max)``, the loss from the log of its normaliser, dL/dlogits = (p - one_hot) / n,
the weights' gradient ``x.T @ dlogits``; the functions passed around as
``jax.tree_util.Partial``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def _forward(x, params):
    return x @ params["w"] + params["b"]


def _head(logits, y):
    shifted = logits - jnp.max(logits, axis=1, keepdims=True)
    e = jnp.exp(shifted)
    z = e.sum(axis=1, keepdims=True)
    hot = (y[:, None] == jnp.arange(logits.shape[1])).astype(logits.dtype)
    loss = jnp.mean(jnp.log(z[:, 0]) - jnp.sum(hot * shifted, axis=1))
    return loss, (e / z - hot) / logits.shape[0]


def loss_and_grads(params, x, y):
    forward, head = Partial(_forward, x), Partial(_head, y=y)
    loss, dlogits = head(forward(params))
    return {"loss": loss, "grads": {"w": x.T @ dlogits, "b": dlogits.sum(0)}}
