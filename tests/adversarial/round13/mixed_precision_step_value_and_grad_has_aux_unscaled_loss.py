"""mixed_precision_step: ``jax.value_and_grad(..., has_aux=True)`` of the scaled loss with the
unscaled float16 loss as its aux (for logging, unused), the state's update written with
``jnp.logical_and`` and ``jnp.logical_not``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
    s16 = loss_scale.astype(jnp.float16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        loss = jnp.mean((hid @ p["out"]["w"] - y16) ** 2)
        return loss * s16, loss

    (_, _), grads = jax.value_and_grad(scaled, has_aux=True)(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    grow = jnp.logical_and(finite, good_steps + 1 == period)
    keep = jnp.logical_and(finite, jnp.logical_not(grow))
    return {
        "params": jax.tree_util.tree_map(lambda a, d: jnp.where(finite, a - lr * d, a), params, g),
        "loss_scale": jnp.where(grow, loss_scale * 2, jnp.where(finite, loss_scale, loss_scale / 2)),
        "good_steps": jnp.where(keep, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
