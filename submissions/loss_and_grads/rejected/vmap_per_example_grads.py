import jax
import jax.numpy as jnp


def example_loss(params, x_i, y_i):
    logits = x_i @ params["w"] + params["b"]
    return -jax.nn.log_softmax(logits)[y_i]


def loss_and_grads(params, x, y):
    # every example's gradient at once: an (n, d, k) value, then its mean
    losses, grads = jax.vmap(jax.value_and_grad(example_loss), in_axes=(None, 0, 0))(params, x, y)
    return {"loss": jnp.mean(losses), "grads": jax.tree.map(lambda g: jnp.mean(g, axis=0), grads)}
