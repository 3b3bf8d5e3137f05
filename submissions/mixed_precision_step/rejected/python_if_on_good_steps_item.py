"""mixed_precision_step, cheat: the doubling decided by a Python if on good_steps.item() (a
traced value turned into a Python number), the rest with jnp.where.

Expected: RJ traced_value_concretized
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)

    def scaled(p):
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y.astype(jnp.float16)) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    if good_steps.item() + 1 == period:
        grown, counted = 2 * loss_scale, jnp.int32(0)
    else:
        grown, counted = loss_scale, good_steps + 1
    return {"params": new,
            "loss_scale": jnp.where(finite, grown, loss_scale / 2),
            "good_steps": jnp.where(finite, counted, 0).astype(jnp.int32),
            "finite": finite}
