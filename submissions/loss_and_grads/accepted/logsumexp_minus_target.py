import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"][None, :]
    target = logits[jnp.arange(x.shape[0]), y]
    return jnp.mean(logsumexp(logits, axis=1) - target)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return dict(loss=loss, grads=grads)
