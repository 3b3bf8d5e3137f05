"""loss_and_grads: the picked logit by ``jnp.take_along_axis(..., mode="clip")`` (the labels are
in range, so clipping changes nothing), ``jax.scipy.special.logsumexp``, ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    picked = jnp.take_along_axis(logits, y[:, None], axis=-1, mode="clip")
    return jnp.mean(logsumexp(logits, axis=-1) - picked[:, 0])


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
