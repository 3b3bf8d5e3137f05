"""loss_and_grads, honest: everything by hand: logits once, the loss as ``logsumexp`` minus the
picked logit (``jnp.where`` of a boolean one-hot, summed), and the gradient
(softmax - one_hot) / n pulled to w by ``lax.dot_general`` contracting the examples' axis.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def loss_and_grads(params, x, y):
    logits = x @ params["w"] + params["b"]
    n = x.shape[0]
    hot = y[:, None] == lax.broadcasted_iota(jnp.int32, logits.shape, 1)
    lse = jax.scipy.special.logsumexp(logits, axis=1)
    picked = jnp.sum(jnp.where(hot, logits, 0.0), axis=1)
    delta = (jax.nn.softmax(logits, axis=1) - hot.astype(logits.dtype)) / n
    gw = lax.dot_general(x, delta, (((0,), (0,)), ((), ())))
    return {"loss": jnp.mean(lse - picked), "grads": {"w": gw, "b": delta.sum(axis=0)}}
