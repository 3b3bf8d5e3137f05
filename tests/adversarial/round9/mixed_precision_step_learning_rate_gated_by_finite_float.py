"""mixed_precision_step: the skip written as arithmetic: the step size is
``lr * finite.astype(float32)`` (zero on overflow), the NaN/inf entries of g replaced by zeros
with ``jnp.nan_to_num`` first so that 0 * inf cannot appear, and the update is
``p - step * g`` in float32. The scale is ``jnp.where``-selected.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = lambda t: jax.tree.map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = half(params), half(x), half(y)

    def scaled_loss(p):
        hid = jnp.tanh(jnp.dot(x16, p["dense"]["w"]) + p["dense"]["b"])
        err = jnp.dot(hid, p["out"]["w"]) - y16
        return jnp.mean(err * err) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled_loss)(p16))
    finite = jax.tree_util.tree_reduce(jnp.logical_and,
                                       jax.tree.map(lambda a: jnp.isfinite(a).all(), g))
    step = lr * finite.astype(jnp.float32)
    new_params = jax.tree.map(lambda p, d: p - step * jnp.nan_to_num(d, nan=0.0, posinf=0.0, neginf=0.0),
                              params, g)
    grow = (good_steps + 1) == period
    scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale * 0.5)
    count = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0)
    return {"params": new_params, "loss_scale": scale, "good_steps": count, "finite": finite}
