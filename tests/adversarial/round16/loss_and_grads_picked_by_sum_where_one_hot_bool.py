"""loss_and_grads, honest: the picked log-probability as ``jnp.sum(logp, axis=1, where=hot)``
with a boolean one-hot from ``jax.nn.one_hot(..., dtype=bool)``, and the mean as ``jnp.mean``;
``value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = jnp.dot(x, params["w"]) + params["b"]
    logp = jax.nn.log_softmax(logits)
    hot = jax.nn.one_hot(y, logits.shape[-1], dtype=bool)
    return -jnp.mean(jnp.sum(logp, axis=1, where=hot))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
