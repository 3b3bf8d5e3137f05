import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    # the loss, then the gradient: the forward pass is traced twice
    return {"loss": loss_fn(params, x, y), "grads": jax.grad(loss_fn)(params, x, y)}
