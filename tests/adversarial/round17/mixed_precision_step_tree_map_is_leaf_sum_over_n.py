"""mixed_precision_step: the loss as ``jnp.sum(err ** 2) / n`` in float16, the casts by
``jax.tree_util.tree_map`` with an ``is_leaf`` that stops at arrays.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _is_array(a):
    return isinstance(a, jax.Array)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params, is_leaf=_is_array)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
    n = x.shape[0]

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y16
        return jnp.sum(err ** 2) / n * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale,
                               jax.grad(scaled_loss)(half), is_leaf=_is_array)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g,
                                        is_leaf=_is_array)
    grow = good_steps + 1 == period
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    new_good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good,
            "finite": finite}
