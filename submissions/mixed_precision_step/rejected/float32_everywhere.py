"""mixed_precision_step, wrong precision: everything in float32, nothing imitated (a WA on the
overflow cases, but the rule refuses it first).

Expected: RJ wrong_precision
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    def scaled(p):
        hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y) ** 2) * loss_scale

    g = jax.tree_util.tree_map(lambda a: a / loss_scale, jax.grad(scaled)(params))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
