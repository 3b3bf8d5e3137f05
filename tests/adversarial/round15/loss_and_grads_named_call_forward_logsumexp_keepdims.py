"""loss_and_grads, honest: the forward pass a ``jax.named_call`` (named ``linear``), the loss
from ``jax.nn.logsumexp(..., keepdims=True)`` less the logits picked by ``y[:, None] ==
jnp.arange(k)`` in a ``jnp.where``, ``jax.value_and_grad`` of it.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _linear(params, x):
    return x @ params["w"] + params["b"]


def loss_and_grads(params, x, y):
    linear = jax.named_call(_linear, name="linear")

    def loss(p):
        logits = linear(p, x)
        lse = jax.nn.logsumexp(logits, axis=-1, keepdims=True)
        picked = jnp.where(y[:, None] == jnp.arange(logits.shape[-1]), logits - lse, 0.0)
        return -picked.sum() / x.shape[0]

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
