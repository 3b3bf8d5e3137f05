"""loss_and_grads, cheat on "one forward pass": the gradient from ``jax.vjp`` of the loss, and
the reported loss from a separate ``x @ w + b`` (the vjp's primal output ignored).

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logp = jax.nn.log_softmax(x @ params["w"] + params["b"])
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def loss_and_grads(params, x, y):
    _, pullback = jax.vjp(lambda p: _loss(p, x, y), params)
    (grads,) = pullback(jnp.ones((), jnp.float32))
    return {"loss": _loss(params, x, y), "grads": grads}
