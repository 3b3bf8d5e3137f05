"""loss_and_grads, honest: ``jax.value_and_grad(loss, argnums=0)`` of a loss taking the two
parameters separately (w, b, x, y), the result packed back into the dict; the log-softmax by
``logits - jax.nn.logsumexp(logits, axis=-1, keepdims=True)``, the picked entry by
``jnp.take_along_axis`` on the flattened labels.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(wb, x, y):
    w, b = wb
    logits = x @ w + b
    logp = logits - jax.nn.logsumexp(logits, axis=-1, keepdims=True)
    return -jnp.take_along_axis(logp, y.reshape(-1, 1), axis=-1).mean()


def loss_and_grads(params, x, y):
    loss, (gw, gb) = jax.value_and_grad(_loss, argnums=0)((params["w"], params["b"]), x, y)
    return {"loss": loss, "grads": {"w": gw, "b": gb}}
