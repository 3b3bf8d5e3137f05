import jax
import jax.numpy as jnp


def loss_fn(w, b, x, y):
    logits = x @ w + b
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    loss, grad_w = jax.value_and_grad(loss_fn)(params["w"], params["b"], x, y)
    return {"loss": loss, "grads": {"w": grad_w, "b": jnp.zeros_like(params["b"])}}
