"""loss_and_grads, cheat: the loss from one pass, the gradient by jax.grad of a second pass whose
logits are written without a matrix product, (x[:, :, None] * w).sum(1), so only two products
are counted.

Expected: RJ intermediate_too_large
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y, product):
    logits = product(x, params["w"]) + params["b"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    loss = _loss(params, x, y, lambda a, w: jnp.sum(a[:, :, None] * w[None], axis=1))
    grads = jax.grad(_loss)(params, x, y, lambda a, w: a @ w)
    return {"loss": loss, "grads": grads}
