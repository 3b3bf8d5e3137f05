"""loss_and_grads: the gradient written out from the logits: ``x.T @ (softmax - onehot) / n``
and the column sum for the bias, with ``jnp.float32(x.shape[0])`` as ``n``; the log-softmax
from ``jax.nn.log_softmax`` and its ``exp`` for the probabilities.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    w, b = params["w"], params["b"]
    logits = x @ w + b
    logp = jax.nn.log_softmax(logits)
    onehot = jax.nn.one_hot(y, w.shape[1])
    n = jnp.float32(x.shape[0])
    loss = -jnp.sum(onehot * logp) / n
    dlogits = (jnp.exp(logp) - onehot) / n
    grads = {"w": x.T @ dlogits, "b": dlogits.sum(axis=0)}
    return {"loss": loss, "grads": grads}
