"""adamw_step: all four trees flattened with ``jax.flatten_util.ravel_pytree`` into vectors,
the step written once on vectors under a ``jax.jit`` with the hyperparameters static
(``static_argnames``), and unravelled back; b^t by ``jnp.exp(t * log b)`` guarded for b = 0.

Problem: adamw_step
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def _pow(b, t):
    return jnp.where(b == 0.0, 0.0, jnp.exp(t * jnp.log(jnp.float32(b) if b > 0 else jnp.float32(1.0))))


@partial(jax.jit, static_argnames=("lr", "b1", "b2", "eps", "weight_decay"))
def _step(p, g, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * jnp.square(g)
    m_hat = m / (1 - _pow(b1, tf))
    v_hat = v / (1 - _pow(b2, tf))
    p = p - lr * (m_hat / (jnp.sqrt(v_hat) + eps) + weight_decay * p)
    return p, m, v, t


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    p, unravel = ravel_pytree(params)
    out = _step(p, ravel_pytree(grads)[0], ravel_pytree(m)[0], ravel_pytree(v)[0], count,
                lr=lr, b1=b1, b2=b2, eps=eps, weight_decay=weight_decay)
    return {"params": unravel(out[0]), "m": unravel(out[1]), "v": unravel(out[2]), "count": out[3]}
