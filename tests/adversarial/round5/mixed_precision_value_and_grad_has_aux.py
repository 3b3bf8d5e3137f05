"""mixed_precision_step: ``jax.value_and_grad(..., has_aux=True)`` of the scaled float16 loss
(the unscaled loss as aux), ``jax.tree.map`` for the casts and the update, ``lax.select`` for
the scale and the counter.

Problem: mixed_precision_step
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
    s16 = loss_scale.astype(jnp.float16)

    def loss_fn(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        loss = jnp.mean(jnp.square(hid @ p["out"]["w"] - y16))
        return loss * s16, loss

    (_, _), grads = jax.value_and_grad(loss_fn, has_aux=True)(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.array(True)
    for leaf in jax.tree.leaves(g):
        finite = finite & jnp.isfinite(leaf).all()
    new_params = jax.tree.map(lambda p, d: lax.select(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    scale = lax.select(finite, lax.select(grow, loss_scale * 2.0, loss_scale), loss_scale * 0.5)
    good = lax.select(finite & ~grow, good_steps + 1, jnp.zeros_like(good_steps))
    return {"params": new_params, "loss_scale": scale, "good_steps": good, "finite": finite}
