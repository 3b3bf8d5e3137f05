"""mixed_precision_step: casts by the scalar types (``jnp.float16(loss_scale)``) and by
``functools.partial(jnp.asarray, dtype=jnp.float16)`` over the tree, the loss the mean
of ``jnp.power(err, 2)``, ``finite`` accumulated with ``&`` over the leaves, the step
applied under ``jax.lax.cond`` per leaf.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp

half = functools.partial(jnp.asarray, dtype=jnp.float16)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    x16, y16 = half(x), half(y)
    scale16 = jnp.float16(loss_scale)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y16
        return jnp.mean(jnp.power(err, 2)) * scale16

    g16 = jax.grad(scaled_loss)(jax.tree.map(half, params))
    g = jax.tree.map(lambda t: jnp.float32(t) / loss_scale, g16)
    finite = jnp.array(True)
    for leaf in jax.tree.leaves(g):
        finite = finite & jnp.isfinite(leaf).all()
    new_params = jax.tree.map(
        lambda p, d: jax.lax.cond(finite, lambda: p - lr * d, lambda: p), params, g)
    done = good_steps + 1 == period
    return {"params": new_params,
            "loss_scale": jnp.where(finite, jnp.where(done, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~done, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
