"""loss_and_grads: the loss from ``x @ w``, and the gradient from ``jax.grad`` of a second
forward pass whose logits come from ``lax.conv_general_dilated`` (a 1 x 1 convolution over the
batch is the same product): two forward passes, without a second matrix product to count.

Problem: loss_and_grads
Expected: RJ repeated_computation
"""

import jax
import jax.numpy as jnp


def _loss(logits, y):
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def _conv_logits(p, x):
    lhs = x.T[None, :, :]                      # (1, d, n): one image, d channels, n positions
    rhs = p["w"].T[:, :, None]                 # (k, d, 1): k filters of width 1
    out = jax.lax.conv_general_dilated(lhs, rhs, (1,), "VALID")
    return out[0].T + p["b"]                   # (n, k)


def loss_and_grads(params, x, y):
    loss = _loss(x @ params["w"] + params["b"], y)
    grads = jax.grad(lambda p: _loss(_conv_logits(p, x), y))(params)
    return {"loss": loss, "grads": grads}
