import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    one_hot = jax.nn.one_hot(y, logits.shape[-1])
    return -jnp.mean(one_hot * jax.nn.log_softmax(logits))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return {"loss": loss, "grads": grads}
