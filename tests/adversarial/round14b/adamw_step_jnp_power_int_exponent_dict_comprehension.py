"""adamw_step: the corrections by ``jnp.power`` of the Python float base to the int32 step (no
cast), the three new trees built by a recursive helper over nested dicts with dict
comprehensions (no ``tree_map``).

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def _update(p, g, m, v, hp):
    if isinstance(p, dict):
        parts = {k: _update(p[k], g[k], m[k], v[k], hp) for k in p}
        return tuple({k: parts[k][i] for k in p} for i in range(3))
    lr, b1, b2, eps, wd, c1, c2 = hp
    m2 = b1 * m + (1 - b1) * g
    v2 = b2 * v + (1 - b2) * g * g
    return p - lr * ((m2 / c1) / (jnp.sqrt(v2 / c2) + eps) + wd * p), m2, v2


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    c1 = 1 - jnp.power(jnp.float32(b1), t)
    c2 = 1 - jnp.power(jnp.float32(b2), t)
    p2, m2, v2 = _update(params, grads, m, v, (lr, b1, b2, eps, weight_decay, c1, c2))
    return {"params": p2, "m": m2, "v": v2, "count": t}
