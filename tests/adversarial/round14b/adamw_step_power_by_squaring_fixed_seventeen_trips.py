"""adamw_step: b^t by exponentiation by squaring in a ``jax.lax.fori_loop`` of a fixed 17 trips
(t <= 100001 < 2^17), one bit of t a trip, in float32; the leaves updated by ``jax.tree.map``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def power(base: float, t):
    def body(i, state):
        result, square = state
        bit = (t >> i) & 1
        result = jnp.where(bit == 1, result * square, result)
        return result, square * square

    result, _ = jax.lax.fori_loop(0, 17, body, (jnp.float32(1.0), jnp.float32(base)))
    return result


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    c1, c2 = 1.0 - power(b1, t), 1.0 - power(b2, t)
    m2 = jax.tree.map(lambda m, g: b1 * m + (1.0 - b1) * g, m, grads)
    v2 = jax.tree.map(lambda v, g: b2 * v + (1.0 - b2) * g * g, v, grads)
    p2 = jax.tree.map(lambda p, m, v: p - lr * ((m / c1) / (jnp.sqrt(v / c2) + eps) + weight_decay * p),
                      params, m2, v2)
    return {"params": p2, "m": m2, "v": v2, "count": t}
