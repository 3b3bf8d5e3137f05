"""loss_and_grads, honest: optax-style cross-entropy with integer labels, the picked log-softmax
by ``jnp.take_along_axis(logp, y[:, None], axis=-1)``, ``jax.value_and_grad`` over the dict.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _xent(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_xent)(params, x, y)
    return {"loss": loss, "grads": grads}
