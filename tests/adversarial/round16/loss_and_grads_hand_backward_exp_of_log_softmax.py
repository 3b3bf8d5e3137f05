"""loss_and_grads, honest: the gradient by hand from the log-probabilities computed once:
probabilities as ``jnp.exp(logp)``, delta = (p - one_hot) / n with the one-hot from
``jnp.eye(k)[y]``, grads w = ``x.T @ delta``; the loss from the same ``logp``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = logits - jax.lax.stop_gradient(logits.max(axis=1, keepdims=True))
    logp = logp - jnp.log(jnp.exp(logp).sum(axis=1, keepdims=True))
    hot = jnp.eye(logits.shape[1], dtype=logits.dtype)[y]
    n = x.shape[0]
    delta = (jnp.exp(logp) - hot) / n
    return {"loss": -(hot * logp).sum() / n, "grads": {"w": x.T @ delta, "b": delta.sum(0)}}
