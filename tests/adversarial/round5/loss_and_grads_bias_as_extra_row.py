"""loss_and_grads: the bias folded into the weights as an extra row (x with a column of ones),
one matrix product for the logits; the gradient by hand, ``x1.T @ (p - onehot) / n``, split
back into w and b, the bias's row taken as ``dwb[d]``. The program is traced with n, d and k as
symbols, and JAX cannot index with a symbolic d: refused with the line named (``dwb[-1]`` or
``dwb[d:][0]`` is accepted: ``loss_and_grads_bias_as_last_row.py``), not a run-time error.

Problem: loss_and_grads
Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n, d = x.shape
    k = params["b"].shape[0]
    x1 = jnp.concatenate([x, jnp.ones((n, 1), x.dtype)], axis=1)
    wb = jnp.concatenate([params["w"], params["b"][None, :]], axis=0)
    logits = x1 @ wb
    logp = jax.nn.log_softmax(logits, axis=-1)
    onehot = jax.nn.one_hot(y, k, dtype=logits.dtype)
    loss = -jnp.sum(onehot * logp) / n
    dwb = x1.T @ ((jnp.exp(logp) - onehot) / n)
    return {"loss": loss, "grads": {"w": dwb[:d], "b": dwb[d]}}
