"""loss_and_grads: the picked log-probabilities by fancy indexing
``logp[jnp.arange(x.shape[0]), y]`` (n a symbol: ``arange`` of it is an iota), ``jax.grad`` with
``has_aux=True`` returning the loss beside the gradient.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logp = jax.nn.log_softmax(x @ params["w"] + params["b"], axis=-1)
    loss = -jnp.mean(logp[jnp.arange(x.shape[0]), y])
    return loss, loss


def loss_and_grads(params, x, y):
    grads, loss = jax.grad(_loss, has_aux=True)(params, x, y)
    return {"loss": loss, "grads": grads}
