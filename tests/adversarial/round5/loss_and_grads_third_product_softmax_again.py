"""loss_and_grads: the gradient written by hand, but the logits computed again for it
(``x @ w`` a second time) instead of reusing them: three matrix products of two data values.

Problem: loss_and_grads
Expected: RJ
"""

import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n = x.shape[0]
    k = params["b"].shape[0]
    logp = jax.nn.log_softmax(x @ params["w"] + params["b"])
    onehot = jax.nn.one_hot(y, k)
    loss = -jnp.sum(onehot * logp) / n
    p = jax.nn.softmax(x @ params["w"] + params["b"])
    dz = (p - onehot) / n
    return {"loss": loss, "grads": {"w": x.T @ dz, "b": dz.sum(0)}}
