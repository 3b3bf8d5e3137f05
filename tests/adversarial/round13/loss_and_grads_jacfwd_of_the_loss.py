"""loss_and_grads, a mistake: the gradient by ``jax.jacfwd`` (forward mode: one tangent for each
of the d k + k parameters, pushed through x @ w at once, a (d, k, n, k)-sized value), the loss
by ``has_aux``. The statement's size cap refuses it at the larger shapes.

Problem: loss_and_grads
Expected: RJ intermediate_too_large
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    loss = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))
    return loss, loss


def loss_and_grads(params, x, y):
    grads, loss = jax.jacfwd(_loss, has_aux=True)(params, x, y)
    return {"loss": loss, "grads": grads}
