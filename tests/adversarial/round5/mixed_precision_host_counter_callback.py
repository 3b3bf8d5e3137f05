"""mixed_precision_step: host-side state: the honest float16 step, plus a ``jax.pure_callback``
that counts the finite steps on the host across calls, folded into good_steps (times zero, so
the values are right).

Problem: mixed_precision_step
Expected: RJ callback_used
"""

import jax
import jax.numpy as jnp
import numpy as np

_count = [0]


def _tick(finite):
    _count[0] = _count[0] + 1 if bool(finite) else 0
    return np.int32(_count[0])


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(p16))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    host = jax.pure_callback(_tick, jax.ShapeDtypeStruct((), jnp.int32), finite)
    grow = good_steps + 1 == period
    good = jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32)
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.maximum(good, host * 0),
        "finite": finite,
    }
