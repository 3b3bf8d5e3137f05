"""adamw_step: a cheat-shaped fallback: it first tries ``int(count)`` (a Python number, which
the statement forbids) and falls back to the traced count when that raises; under the judge's
trace the fallback always runs, so the program traced is the honest one.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    try:
        t = int(count) + 1
        c1, c2 = 1 - b1 ** t, 1 - b2 ** t
        t = jnp.int32(t)
    except Exception:
        t = count + 1
        c1 = 1 - jnp.float32(b1) ** t.astype(jnp.float32)
        c2 = 1 - jnp.float32(b2) ** t.astype(jnp.float32)
    m2 = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v2 = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    p2 = jax.tree.map(lambda p, m, v: p - lr * (m / c1 / (jnp.sqrt(v / c2) + eps) + weight_decay * p),
                      params, m2, v2)
    return {"params": p2, "m": m2, "v": v2, "count": t}
