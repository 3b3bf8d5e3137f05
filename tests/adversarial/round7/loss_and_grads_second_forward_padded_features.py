"""loss_and_grads: the gradient from ``jax.grad``, the loss from a second forward pass with no
product: x and w padded to 16 features (the largest d) and the logits summed from 16 rank-one
(n, k) terms by ``functools.reduce``. The loop never reads d, each term is small, and the
products stay two; the program passes the equation cap.

Problem: loss_and_grads
Expected: RJ unrolled_loop
"""
import functools

import jax
import jax.numpy as jnp


def f(params, x, y):
    z = x @ params["w"] + params["b"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(z), y[:, None], 1))


def loss_and_grads(params, x, y):
    grads = jax.grad(f)(params, x, y)
    # the loss from a second forward pass with no product: d <= 16 rank-one (n, k) terms
    xp = jnp.pad(x, ((0, 0), (0, 16 - x.shape[1])))
    wp = jnp.pad(params["w"], ((0, 16 - x.shape[1]), (0, 0)))
    z = functools.reduce(lambda acc, j: acc + xp[:, j, None] * wp[j][None, :], range(16),
                         jnp.broadcast_to(params["b"], (x.shape[0], params["b"].shape[0])))
    loss = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(z), y[:, None], 1))
    return {"loss": loss, "grads": grads}
