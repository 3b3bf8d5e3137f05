"""mixed_precision_step, wrong: the scale never grows past 32768 (a cap the statement does not
ask for): a good run at 32768 that should double to 65536 stays.

Expected: WA wrong_value
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
    grow = good_steps + 1 == period
    grown = jnp.minimum(2 * loss_scale, 32768.0)
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, grown, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
