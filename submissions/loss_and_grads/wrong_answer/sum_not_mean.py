import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    return -jnp.sum(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return {"loss": loss, "grads": grads}
