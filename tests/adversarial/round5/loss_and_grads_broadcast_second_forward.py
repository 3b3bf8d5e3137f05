"""loss_and_grads: the loss from ``x @ w``, the gradient from ``jax.grad`` of a second forward
pass whose logits are a broadcast product summed over d (no matrix product to count): an
(n, d, k) value, which the size bound refuses at the larger shapes.

Problem: loss_and_grads
Expected: RJ intermediate_too_large
Cases: all
"""

import jax
import jax.numpy as jnp


def _loss(logits, y):
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    loss = _loss(x @ params["w"] + params["b"], y)
    grads = jax.grad(lambda p: _loss((x[:, :, None] * p["w"][None]).sum(1) + p["b"], y))(params)
    return {"loss": loss, "grads": grads}
