"""loss_and_grads: the bias folded into the weights as an extra row (x with a column of ones),
one matrix product for the logits; the gradient by hand, ``x1.T @ (p - onehot) / n``, split
back into w and b with ``dwb[:-1]`` and ``dwb[-1]``.

Problem: loss_and_grads
Expected: AC
"""

import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n = x.shape[0]
    k = params["b"].shape[0]
    x1 = jnp.concatenate([x, jnp.ones((n, 1), x.dtype)], axis=1)
    wb = jnp.concatenate([params["w"], params["b"][None, :]], axis=0)
    logits = x1 @ wb
    logp = jax.nn.log_softmax(logits, axis=-1)
    onehot = jax.nn.one_hot(y, k, dtype=logits.dtype)
    loss = -jnp.sum(onehot * logp) / n
    dwb = x1.T @ ((jnp.exp(logp) - onehot) / n)
    return {"loss": loss, "grads": {"w": dwb[:-1], "b": dwb[-1]}}
