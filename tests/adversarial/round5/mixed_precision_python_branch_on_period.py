"""mixed_precision_step: a Python ``if`` on ``period`` (a Python int, not traced): with a period
of 1 every finite step doubles the scale, written as its own branch; ``jax.checkpoint`` around
the float16 loss.

Problem: mixed_precision_step
Expected: AC
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    @jax.checkpoint
    def scaled_loss(p):
        hid = jnp.tanh(jnp.dot(x16, p["dense"]["w"]) + p["dense"]["b"])
        return jnp.mean((jnp.dot(hid, p["out"]["w"]) - y16) ** 2) * loss_scale.astype(jnp.float16)

    grads = jax.grad(scaled_loss)(half)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]).all()
    if period == 1:
        grown_scale, grown_good = loss_scale * 2, jnp.zeros_like(good_steps)
    else:
        grow = good_steps + 1 == period
        grown_scale = jnp.where(grow, loss_scale * 2, loss_scale)
        grown_good = jnp.where(grow, 0, good_steps + 1)
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, grown_scale, loss_scale / 2),
        "good_steps": jnp.where(finite, grown_good, 0).astype(jnp.int32),
        "finite": finite,
    }
