"""loss_and_grads: the picked logit as ``logsumexp(logits, where=onehot)`` (a log-sum-exp over the
label's entry alone is that entry), the loss the difference of two ``jax.nn.logsumexp``s;
``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    hit = y[:, None] == jnp.arange(logits.shape[1])[None, :]
    picked = jax.nn.logsumexp(logits, axis=1, where=hit)
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - picked)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
