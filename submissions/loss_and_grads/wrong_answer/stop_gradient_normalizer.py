import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    log_z = jax.lax.stop_gradient(jax.nn.logsumexp(logits, axis=-1))
    return jnp.mean(log_z - jnp.take_along_axis(logits, y[:, None], axis=-1)[:, 0])


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return {"loss": loss, "grads": grads}
