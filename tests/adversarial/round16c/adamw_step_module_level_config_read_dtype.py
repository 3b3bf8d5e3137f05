"""adamw_step: a module-level read of ``jax.config.jax_enable_x64`` choosing the float type of
the step count (float32 here), a generator expression over the dict's items for a flat dict,
a recursive call for a nested one.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

FLOAT = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32


def _walk(p, g, m, v, hp):
    if isinstance(p, dict):
        parts = {key: _walk(p[key], g[key], m[key], v[key], hp) for key in p}
        return tuple({key: val[i] for key, val in parts.items()} for i in range(3))
    lr, b1, b2, eps, wd, c1, c2 = hp
    m2 = b1 * m + (1 - b1) * g
    v2 = b2 * v + (1 - b2) * g * g
    p2 = p - lr * (m2 / c1 / (jnp.sqrt(v2 / c2) + eps) + wd * p)
    return p2, m2, v2


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(FLOAT)
    c1 = (1 - jnp.power(b1, tf)).astype(jnp.float32)
    c2 = (1 - jnp.power(b2, tf)).astype(jnp.float32)
    p2, m2, v2 = _walk(params, grads, m, v, (lr, b1, b2, eps, weight_decay, c1, c2))
    return dict(params=p2, m=m2, v=v2, count=t)
