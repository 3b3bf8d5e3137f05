"""loss_and_grads: ``jax.nn.logsumexp(logits, axis=1, return_sign=True)`` (the sign, always 1,
dropped) less the picked logit, ``jax.value_and_grad`` of the mean.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    lse, _ = jax.nn.logsumexp(logits, axis=1, return_sign=True)
    picked = jnp.take_along_axis(logits, y[:, None], axis=1)[:, 0]
    return jnp.mean(lse - picked)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
