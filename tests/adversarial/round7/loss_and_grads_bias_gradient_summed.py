"""loss_and_grads: the gradient written by hand from the logits, with the weights' gradient
averaged over the batch and the bias's summed: right wherever n = 1.

Problem: loss_and_grads
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    w, b = params["w"], params["b"]
    n = x.shape[0]
    logits = x @ w + b
    logp = jax.nn.log_softmax(logits)
    onehot = jax.nn.one_hot(y, w.shape[1])
    loss = -(onehot * logp).sum() / n
    g = jnp.exp(logp) - onehot
    return {"loss": loss, "grads": {"w": x.T @ g / n, "b": g.sum(0)}}
