"""mixed_precision_step, cheat: finite read on the host with np.isfinite(np.asarray(g)).all() and
the step chosen by a Python if on it.

Expected: RJ traced_value_concretized
"""
import jax
import jax.numpy as jnp
import numpy as np


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)

    def scaled(p):
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y.astype(jnp.float16)) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = all(np.isfinite(np.asarray(a)).all() for a in jax.tree_util.tree_leaves(g))
    if finite:
        new = jax.tree_util.tree_map(lambda p, d: p - lr * d, params, g)
        grow = good_steps + 1 == period
        scale = jnp.where(grow, 2 * loss_scale, loss_scale)
        good = jnp.where(grow, 0, good_steps + 1).astype(jnp.int32)
    else:
        new, scale, good = params, loss_scale / 2, jnp.int32(0)
    return {"params": new, "loss_scale": scale, "good_steps": good, "finite": jnp.bool_(finite)}
