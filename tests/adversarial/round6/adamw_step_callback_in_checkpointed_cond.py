"""adamw_step: the moments updated in NumPy through ``jax.pure_callback``, hidden in a branch of
``lax.cond`` inside a ``jax.checkpoint`` inside a ``jax.jit``: the branch that calls back is
taken on every case (count >= 0), the other is never run.

Problem: adamw_step
Expected: RJ callback_used
"""

import jax
import jax.numpy as jnp
import numpy as np


def _host_moments(g, m, v, b1, b2):
    g, m, v = np.asarray(g), np.asarray(m), np.asarray(v)
    return ((b1 * m + (1 - b1) * g).astype(np.float32),
            (b2 * v + (1 - b2) * g * g).astype(np.float32))


def _moments(g, m, v, count, b1, b2):
    shapes = (jax.ShapeDtypeStruct(g.shape, g.dtype), jax.ShapeDtypeStruct(g.shape, g.dtype))

    def outside(ops):
        return jax.pure_callback(lambda a, b, c: _host_moments(a, b, c, b1, b2), shapes, *ops)

    def inside(ops):
        a, b, c = ops
        return b1 * b + (1 - b1) * a, b2 * c + (1 - b2) * a * a

    return jax.lax.cond(count >= 0, outside, inside, (g, m, v))


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    moments = jax.jit(jax.checkpoint(lambda g, mm, vv, c: _moments(g, mm, vv, c, b1, b2)))
    both = jax.tree_util.tree_map(lambda g, mm, vv: moments(g, mm, vv, count), grads, m, v)
    is_pair = lambda x: isinstance(x, tuple)
    m1 = jax.tree_util.tree_map(lambda o: o[0], both, is_leaf=is_pair)
    v1 = jax.tree_util.tree_map(lambda o: o[1], both, is_leaf=is_pair)
    p1 = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * ((a / (1 - b1 ** t)) / (jnp.sqrt(b / (1 - b2 ** t)) + eps)
                                  + weight_decay * p), params, m1, v1)
    return {"params": p1, "m": m1, "v": v1, "count": t}
