"""loss_and_grads, cheat on "one forward pass": ``jax.value_and_grad`` called twice, the loss
kept from the first call and the gradient from the second (as if the first were a separate
evaluation step): the logits x @ w are computed twice.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logp = jax.nn.log_softmax(x @ params["w"] + params["b"])
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def loss_and_grads(params, x, y):
    loss, _ = jax.value_and_grad(_loss)(params, x, y)
    _, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
