"""mixed_precision_step: the unscale as ``g * (1.0 / loss_scale)`` (a reciprocal of the
scale, not of data), the update as ``p - g * lr`` with ``jnp.float32(lr)``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    lr32 = jnp.float32(lr)
    inv_scale = 1.0 / loss_scale
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) * inv_scale,
                               jax.grad(scaled_loss)(half))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - d * lr32, p), params, g)
    grow = good_steps + 1 == period
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale * 0.5)
    new_good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good,
            "finite": finite}
