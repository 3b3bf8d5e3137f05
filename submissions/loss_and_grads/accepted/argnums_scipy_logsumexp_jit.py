"""loss_and_grads, honest: jax.jit of value_and_grad with argnums=(0, 1) over w and b as separate
arguments, jax.scipy.special.logsumexp, the labels' logits by take_along_axis; the dict built
again at the end.

Expected: AC
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def _xent(w, b, x, y):
    logits = jnp.dot(x, w) + b
    target = jnp.take_along_axis(logits, y[:, None], axis=1)[:, 0]
    return jnp.mean(logsumexp(logits, axis=1) - target)


_both = jax.jit(jax.value_and_grad(_xent, argnums=(0, 1)))


def loss_and_grads(params, x, y):
    loss, (gw, gb) = _both(params["w"], params["b"], x, y)
    return {"loss": loss, "grads": {"w": gw, "b": gb}}
