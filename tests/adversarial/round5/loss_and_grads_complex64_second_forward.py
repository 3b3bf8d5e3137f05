"""loss_and_grads: the loss from ``x @ w`` in float32, the gradient from ``jax.grad`` of a
second forward pass whose product is taken in complex64 (exact to float32's precision, the
real part kept): two forward passes, the second not in the dtype the count reads.

Problem: loss_and_grads
Expected: RJ repeated_computation
"""

import jax
import jax.numpy as jnp


def _loss(logits, y):
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=-1))


def _complex_logits(p, x):
    return (x.astype(jnp.complex64) @ p["w"].astype(jnp.complex64)).real + p["b"]


def loss_and_grads(params, x, y):
    loss = _loss(x @ params["w"] + params["b"], y)
    grads = jax.grad(lambda p: _loss(_complex_logits(p, x), y))(params)
    return {"loss": loss, "grads": grads}
