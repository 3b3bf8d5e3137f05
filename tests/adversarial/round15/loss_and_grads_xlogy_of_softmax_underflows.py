"""loss_and_grads, mistake: the loss as ``-sum(xlogy(one_hot, softmax(logits))) / n``: the
softmax computed first underflows to zero for a true class far below the largest logit (the
logits reach about 260), and its log is then infinite, where the stable log-softmax is not.

Problem: loss_and_grads
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import xlogy


def loss_and_grads(params, x, y):
    hot = jax.nn.one_hot(y, params["w"].shape[1])

    def loss(p):
        probs = jax.nn.softmax(x @ p["w"] + p["b"], axis=-1)
        return -jnp.sum(xlogy(hot, probs)) / x.shape[0]

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
