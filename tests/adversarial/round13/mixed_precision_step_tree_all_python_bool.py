"""mixed_precision_step, a mistake: ``finite`` by ``jax.tree_util.tree_all`` over each leaf's
``jnp.isfinite(...).all()``, which asks Python's ``bool`` of every traced flag: a traced value
turned into a Python bool, refused (the statement says to use ``jnp.where`` or ``lax.cond``).

Problem: mixed_precision_step
Expected: RJ traced_value_concretized
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(half))
    finite = jnp.asarray(jax.tree_util.tree_all(jax.tree.map(lambda a: jnp.isfinite(a).all(), g)))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
