"""adamw_step: a recursive walk over the nested dicts in plain Python, each leaf updated by a
``jax.jit`` helper whose hyperparameters are static arguments (``functools.partial`` with
``static_argnums``), the bias corrections as ``exp(t * log(b))`` guarded by a Python branch
on b == 0.

Problem: adamw_step
Expected: AC
"""

import functools
import math

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(5, 6, 7, 8, 9))
def _leaf(p, g, m, v, t, lr, b1, b2, eps, wd):
    m1 = b1 * m + (1 - b1) * g
    v1 = b2 * v + (1 - b2) * g * g
    c1 = 1.0 - (jnp.exp(t * math.log(b1)) if b1 > 0 else 0.0)
    c2 = 1.0 - (jnp.exp(t * math.log(b2)) if b2 > 0 else 0.0)
    upd = (m1 / c1) / (jnp.sqrt(v1 / c2) + eps)
    return p - lr * upd - lr * wd * p, m1, v1


def _walk(params, grads, m, v, t, hyper):
    out_p, out_m, out_v = {}, {}, {}
    for key in params:
        if isinstance(params[key], dict):
            out_p[key], out_m[key], out_v[key] = _walk(params[key], grads[key], m[key],
                                                       v[key], t, hyper)
        else:
            out_p[key], out_m[key], out_v[key] = _leaf(params[key], grads[key], m[key],
                                                       v[key], t, *hyper)
    return out_p, out_m, out_v


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = jnp.asarray(count, jnp.float32) + 1.0
    p, m1, v1 = _walk(params, grads, m, v, t, (lr, b1, b2, eps, weight_decay))
    return {"params": p, "m": m1, "v": v1, "count": count + jnp.int32(1)}
