"""loss_and_grads: a stable log-sum-exp by hand with the row maximum stopped
(``lax.stop_gradient``: the shift cancels), the picked log-probability by a one-hot sum,
``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _loss(params, x, y):
    logits = jnp.dot(x, params["w"]) + params["b"]
    m = lax.stop_gradient(jnp.max(logits, axis=-1, keepdims=True))
    logp = logits - m - jnp.log(jnp.sum(jnp.exp(logits - m), axis=-1, keepdims=True))
    onehot = jax.nn.one_hot(y, logits.shape[-1], dtype=logits.dtype)
    return -jnp.sum(onehot * logp) / x.shape[0]


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
