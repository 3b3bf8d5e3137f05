"""mixed_precision_step: the scale updated by ``jnp.ldexp(loss_scale, e)`` with ``e`` in
{-1, 0, 1} chosen by ``where`` (the scale is a power of two: the exponent is what moves).

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale,
                               jax.grad(scaled_loss)(half))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    grow = good_steps + 1 == period
    exponent = jnp.where(finite, jnp.where(grow, 1, 0), -1).astype(jnp.int32)
    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    return {"params": new_params, "loss_scale": jnp.ldexp(loss_scale, exponent),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
