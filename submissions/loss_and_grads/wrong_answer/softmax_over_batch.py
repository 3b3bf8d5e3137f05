import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    log_probs = jax.nn.log_softmax(logits, axis=0)
    return -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return {"loss": loss, "grads": grads}
