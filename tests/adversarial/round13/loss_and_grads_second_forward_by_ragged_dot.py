"""loss_and_grads, cheat: the gradient by ``jax.grad`` (two products) and the loss from x @ w
computed a second time by ``lax.ragged_dot`` (one group holding every row of x), a matrix
product under another primitive's name (``ragged_dot_general``), stopped.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _xent(logits, y):
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def _f(params, x, y):
    return _xent(x @ params["w"] + params["b"], y)


def loss_and_grads(params, x, y):
    rows = jnp.full((1,), x.shape[0], jnp.int32)
    logits = lax.ragged_dot(lax.stop_gradient(x), lax.stop_gradient(params["w"])[None], rows)
    loss = _xent(logits + params["b"], y)
    return {"loss": loss, "grads": jax.grad(_f)(params, x, y)}
