"""loss_and_grads, honest: ``jax.value_and_grad(argnums=(0, 2), allow_int=True)``: the labels
differentiated too (their gradient a ``float0`` array, dropped), the params' gradient kept.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logp = jax.nn.log_softmax(x @ params["w"] + params["b"])
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def loss_and_grads(params, x, y):
    loss, (grads, _label_grads) = jax.value_and_grad(_loss, argnums=(0, 2), allow_int=True)(params, x, y)
    return {"loss": loss, "grads": grads}
