"""mixed_precision_step, honest: the gradient of the scalar scaled loss taken with jax.jacrev
(reverse mode, one cotangent), the casts with lax.convert_element_type on a tree_map, and the
step and flags selected with jnp.where.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: jax.lax.convert_element_type(a, jnp.float16), params)
    x16, y16, s16 = (jax.lax.convert_element_type(a, jnp.float16) for a in (x, y, loss_scale))

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * s16

    grads = jax.jacrev(scaled)(half)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
