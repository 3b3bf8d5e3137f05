"""loss_and_grads: the gradient written out from the logits computed once: ``lax.dot_general``
for x w and for x^T dz (contracting the batch axis of both), the loss a sum divided by
``y.size``, the softmax from ``jnp.exp`` of the log-softmax.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def loss_and_grads(params, x, y):
    logits = lax.dot_general(x, params["w"], (((1,), (0,)), ((), ()))) + params["b"]
    logp = jax.nn.log_softmax(logits, axis=1)
    onehot = jax.nn.one_hot(y, logits.shape[1])
    loss = -jnp.sum(onehot * logp) / y.size
    dz = (jnp.exp(logp) - onehot) / y.size
    gw = lax.dot_general(x, dz, (((0,), (0,)), ((), ())))
    return {"loss": loss, "grads": {"w": gw, "b": jnp.sum(dz, axis=0)}}
