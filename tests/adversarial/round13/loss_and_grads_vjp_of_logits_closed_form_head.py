"""loss_and_grads: ``jax.vjp`` of the logits as a function of the params (the forward product
once), the loss and its derivative by the logits written in closed form (softmax less the
one-hot, over n), pulled back through the vjp.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _logits(params, x):
    return x @ params["w"] + params["b"]


def loss_and_grads(params, x, y):
    logits, pull = jax.vjp(lambda p: _logits(p, x), params)
    hot = jax.nn.one_hot(y, logits.shape[1], dtype=logits.dtype)
    loss = jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.sum(hot * logits, axis=1))
    (grads,) = pull((jax.nn.softmax(logits, axis=1) - hot) / x.shape[0])
    return {"loss": loss, "grads": grads}
