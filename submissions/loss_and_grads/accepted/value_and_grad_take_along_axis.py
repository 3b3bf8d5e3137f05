import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
