"""adamw_step: the ``jax.tree`` API (``jax.tree.map``), the bias corrections as
``-expm1(t * log(b))`` (accurate when b^t is close to 1; at b1 = 0 the log is -inf and the
correction 1), and ``jax.lax.rsqrt``-free division by ``sqrt(v_hat) + eps``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    bc1 = -jnp.expm1(tf * jnp.log(jnp.float32(b1)))
    bc2 = -jnp.expm1(tf * jnp.log(jnp.float32(b2)))
    m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * jnp.square(g), v, grads)
    params = jax.tree.map(
        lambda p, m, v: p - lr * (m / bc1 / (jnp.sqrt(v / bc2) + eps) + weight_decay * p),
        params, m, v)
    return {"params": params, "m": m, "v": v, "count": t}
