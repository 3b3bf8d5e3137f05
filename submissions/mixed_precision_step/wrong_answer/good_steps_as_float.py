"""mixed_precision_step, wrong: good_steps returned as float32 (it must stay int32).

Expected: WA wrong_dtype
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
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1.0, 0.0),
            "finite": finite}
