"""loss_and_grads, wrong: the logits as x @ (w + b), the bias
added to every row of w before the product.

Expected: WA wrong_value
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ (params["w"] + params["b"])
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
