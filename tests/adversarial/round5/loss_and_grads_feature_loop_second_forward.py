"""loss_and_grads: the loss from ``x @ w``, and the gradient from ``jax.grad`` of a second
forward pass whose logits are summed over the d features in a Python loop: two forward
passes, no second matrix product, no large value. d is a symbol when the program is traced, so
the loop cannot be.

Problem: loss_and_grads
Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def _loss(logits, y):
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def _loop_logits(p, x):
    logits = jnp.broadcast_to(p["b"], (x.shape[0], p["b"].shape[0]))
    for i in range(x.shape[1]):
        logits = logits + x[:, i:i + 1] * p["w"][i]
    return logits


def loss_and_grads(params, x, y):
    loss = _loss(x @ params["w"] + params["b"], y)
    grads = jax.grad(lambda p: _loss(_loop_logits(p, x), y))(params)
    return {"loss": loss, "grads": grads}
