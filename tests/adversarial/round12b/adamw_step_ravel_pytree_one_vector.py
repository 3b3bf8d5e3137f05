"""adamw_step: every tree raveled into one vector with ``jax.flatten_util.ravel_pytree``, the
step taken on the vectors, the parameters and moments unraveled back.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    p, unravel = ravel_pytree(params)
    g, _ = ravel_pytree(grads)
    mv, _ = ravel_pytree(m)
    vv, _ = ravel_pytree(v)
    t = count + 1
    mv = b1 * mv + (1 - b1) * g
    vv = b2 * vv + (1 - b2) * g ** 2
    m_hat = mv / (1 - b1 ** t.astype(jnp.float32))
    v_hat = vv / (1 - b2 ** t.astype(jnp.float32))
    p = p - lr * (m_hat / (jnp.sqrt(v_hat) + eps) + weight_decay * p)
    return {"params": unravel(p), "m": unravel(mv), "v": unravel(vv), "count": t}
