"""adamw_step: the corrections with ``jnp.float_power`` of the float32 step number (float32
with x64 off), the moments updated with ``jnp.lerp``-like ``m + (1 - b1) * (g - m)`` written as
a helper at module level, the tree handled by ``jax.tree.map``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema_toward(old, new, keep):
    return old + (1.0 - keep) * (new - old)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = (count + 1).astype(jnp.float32)
    c1 = 1.0 - jnp.float_power(b1, t).astype(jnp.float32)
    c2 = 1.0 - jnp.float_power(b2, t).astype(jnp.float32)
    m = jax.tree.map(lambda m, g: ema_toward(m, g, b1), m, grads)
    v = jax.tree.map(lambda v, g: ema_toward(v, g * g, b2), v, grads)
    p = jax.tree.map(lambda p, m, v: p - lr * (m / c1 / (jnp.sqrt(v / c2) + eps) + weight_decay * p),
                     params, m, v)
    return {"params": p, "m": m, "v": v, "count": count + 1}
