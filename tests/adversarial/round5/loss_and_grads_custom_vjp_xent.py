"""loss_and_grads: a ``jax.custom_vjp`` cross-entropy on the logits (backward: (softmax -
one_hot) / n times the cotangent), ``jax.value_and_grad`` over the dict around it.

Problem: loss_and_grads
Expected: AC
"""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def xent(logits, y):
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))


def _fwd(logits, y):
    return xent(logits, y), (jax.nn.softmax(logits), y)


def _bwd(res, ct):
    p, y = res
    n, k = p.shape
    return ct * (p - jax.nn.one_hot(y, k, dtype=p.dtype)) / n, None


xent.defvjp(_fwd, _bwd)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(lambda p: xent(x @ p["w"] + p["b"], y))(params)
    return {"loss": loss, "grads": grads}
