"""adamw_step: a ``jax.jit`` with the five hyperparameters as ``static_argnames``, the moments
each updated by its own ``jax.tree.map`` with a lambda, then a third map for the parameters;
the corrections as ``1 - jnp.float32(b) ** t`` with ``t`` left an int32 array.

Problem: adamw_step
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("lr", "b1", "b2", "eps", "weight_decay"))
def _step(params, grads, m, v, count, *, lr, b1, b2, eps, weight_decay):
    t = count + jnp.int32(1)
    m = jax.tree.map(lambda mo, g: b1 * mo + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda ve, g: b2 * ve + (1 - b2) * jnp.square(g), v, grads)
    c1 = 1 - jnp.float32(b1) ** t
    c2 = 1 - jnp.float32(b2) ** t
    params = jax.tree.map(
        lambda p, mo, ve: p - lr * ((mo / c1) / (jnp.sqrt(ve / c2) + eps) + weight_decay * p),
        params, m, v)
    return dict(params=params, m=m, v=v, count=t)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay=0.0):
    return _step(params, grads, m, v, count, lr=lr, b1=b1, b2=b2, eps=eps,
                 weight_decay=weight_decay)
