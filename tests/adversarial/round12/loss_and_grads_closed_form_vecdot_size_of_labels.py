"""loss_and_grads: the closed form with n as ``y.size``, the softmax from ``jnp.exp`` of the
log-softmax, the picked log-probability by ``jnp.vecdot`` with the one-hot, and the weight
gradient as ``x.T.dot(delta)``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    w, b = params["w"], params["b"]
    logits = x.dot(w) + b
    logp = jax.nn.log_softmax(logits, axis=1)
    onehot = jax.nn.one_hot(y, w.shape[1])
    n = y.size
    loss = -jnp.sum(jnp.vecdot(onehot, logp)) / n
    delta = (jnp.exp(logp) - onehot) / n
    return {"loss": loss, "grads": {"w": x.T.dot(delta), "b": delta.sum(axis=0)}}
