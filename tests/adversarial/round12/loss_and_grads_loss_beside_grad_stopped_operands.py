"""loss_and_grads, cheat: the gradient by ``jax.grad`` and the loss by a second forward pass
whose operands are wrapped in ``lax.stop_gradient`` in the hope that a stopped product is not
counted: x @ w is computed three times.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def xent(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jax.nn.logsumexp(logits, axis=1)
                    - jnp.take_along_axis(logits, y[:, None], axis=1)[:, 0])


def loss_and_grads(params, x, y):
    grads = jax.grad(xent)(params, x, y)
    loss = xent(lax.stop_gradient(params), lax.stop_gradient(x), y)
    return {"loss": loss, "grads": grads}
