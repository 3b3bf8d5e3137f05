"""loss_and_grads: the gradient in closed form: the softmax, one subtracted at each label by
``probs.at[jnp.arange(n), y].add(-1.0)``, divided by n; ``x.T @ dlogits`` and its column sums;
the loss from the same logits by ``logsumexp`` less the label's logit.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n = x.shape[0]
    logits = x @ params["w"] + params["b"]
    rows = jnp.arange(n)
    loss = jnp.mean(jax.nn.logsumexp(logits, axis=1) - logits[rows, y])
    dlogits = jax.nn.softmax(logits, axis=1).at[rows, y].add(-1.0) / n
    return {"loss": loss, "grads": {"w": x.T @ dlogits, "b": dlogits.sum(axis=0)}}
