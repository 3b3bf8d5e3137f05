"""loss_and_grads, a mistake: the softmax by ``exp(l) / sum(exp(l))`` without subtracting the
row's maximum, then its log: logits near 260 overflow ``exp`` to infinity and the loss and
gradient become NaN on those cases.

Problem: loss_and_grads
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    e = jnp.exp(x @ params["w"] + params["b"])
    p = e / jnp.sum(e, axis=1, keepdims=True)
    return -jnp.mean(jnp.log(jnp.take_along_axis(p, y[:, None], axis=1)))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
