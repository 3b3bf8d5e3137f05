"""loss_and_grads: ``jax.vjp`` of the whole loss with respect to the dict, the pullback seeded with
``jnp.ones_like(loss)``; the log-softmax as ``logits - logsumexp(logits, keepdims=True)``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def loss_and_grads(params, x, y):
    def loss_fn(p):
        logits = x @ p["w"] + p["b"]
        logp = logits - logsumexp(logits, axis=-1, keepdims=True)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))

    loss, pull = jax.vjp(loss_fn, params)
    (grads,) = pull(jnp.ones_like(loss))
    return {"loss": loss, "grads": grads}
