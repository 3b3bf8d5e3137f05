"""mixed_precision_step: the two outcomes as two functions of one state tuple chosen by
``lax.cond`` on ``finite``; inside the good branch a second ``lax.cond`` on the counter
reaching the period.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp
from jax import lax


def _forward(p, x, y):
    hid = jnp.tanh(jnp.matmul(x, p["dense"]["w"]) + p["dense"]["b"])
    return jnp.matmul(hid, p["out"]["w"])


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    cast = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = cast(params), cast(x), cast(y)

    def scaled_loss(p):
        err = _forward(p, x16, y16) - y16
        return jnp.mean(err * err) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled_loss)(p16))
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))

    def good(state):
        p, s, n = state
        p = jax.tree_util.tree_map(lambda a, b: a - lr * b, p, g)
        s, n = lax.cond(n + 1 == period, lambda: (s * 2.0, jnp.int32(0)), lambda: (s, n + 1))
        return p, s, n

    def bad(state):
        p, s, _ = state
        return p, s * 0.5, jnp.int32(0)

    p, s, n = lax.cond(finite, good, bad, (params, loss_scale, good_steps))
    return {"params": p, "loss_scale": s, "good_steps": n, "finite": finite}
