"""loss_and_grads: the per-example loss (one row's logits, its log-softmax, the label's entry)
mapped by ``jax.vmap(..., in_axes=(None, 0, 0))`` and averaged by ``jnp.mean``;
``jax.value_and_grad`` of the mean (the batch's products are still two).

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _one(params, xi, yi):
    logits = xi @ params["w"] + params["b"]
    return -jax.nn.log_softmax(logits)[yi]


def _loss(params, x, y):
    return jnp.mean(jax.vmap(_one, in_axes=(None, 0, 0))(params, x, y))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
