import jax
import jax.numpy as jnp


def example_loss(params, x_i, y_i):
    logits = x_i @ params["w"] + params["b"]
    return -jax.nn.log_softmax(logits)[y_i]


def loss_and_grads(params, x, y):
    losses, grads = jax.lax.map(lambda xy: jax.value_and_grad(example_loss)(params, *xy), (x, y))
    return {"loss": jnp.mean(losses), "grads": jax.tree.map(lambda g: jnp.mean(g, axis=0), grads)}
