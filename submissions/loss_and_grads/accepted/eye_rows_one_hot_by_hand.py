"""loss_and_grads, honest: the gradient by hand from the logits computed once, the one-hot of
the labels as rows of jnp.eye(k), softmax from jax.nn.softmax, the loss from log_softmax.

Expected: AC
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    w, b = params["w"], params["b"]
    logits = x @ w + b
    onehot = jnp.eye(w.shape[1], dtype=x.dtype)[y]
    logp = jax.nn.log_softmax(logits, axis=-1)
    n = x.shape[0]
    loss = -jnp.sum(onehot * logp) / n
    dlogits = (jax.nn.softmax(logits, axis=-1) - onehot) / n
    return {"loss": loss, "grads": {"w": x.T @ dlogits, "b": dlogits.sum(axis=0)}}
