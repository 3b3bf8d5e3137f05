"""loss_and_grads: the gradient written by hand from the logits computed once: ``softmax -
one_hot`` divided by ``x.shape[0]``, ``x.T @ dlogits`` for ``w`` and a column sum for ``b``;
the loss from ``jax.nn.logsumexp`` minus the picked logit, the one-hot by ``jax.nn.one_hot``
with ``logits.shape[-1]`` classes.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    w, b = params["w"], params["b"]
    logits = x @ w + b
    n = x.shape[0]
    onehot = jax.nn.one_hot(y, logits.shape[-1], dtype=logits.dtype)
    lse = jax.nn.logsumexp(logits, axis=-1)
    loss = jnp.sum(lse - jnp.sum(onehot * logits, axis=-1)) / n
    dlogits = (jnp.exp(logits - lse[:, None]) - onehot) / n
    return {"loss": loss, "grads": {"w": x.T @ dlogits, "b": jnp.sum(dlogits, axis=0)}}
