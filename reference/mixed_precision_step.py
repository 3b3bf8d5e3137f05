"""Reference solution for mixed_precision_step: one training step of a one-hidden-layer
regression network in float16 with dynamic loss scaling. The loss and its gradient (JAX
autodiff of loss * scale) are computed in float16; the gradient is unscaled in float32 and, if
every entry is finite, applied; the scale doubles after `period` good steps in a row and halves
(the step skipped) on an overflow."""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
    scale16 = loss_scale.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        pred = hid @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * scale16

    grads = jax.grad(scaled_loss)(half)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))

    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    new_good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good,
            "finite": finite}
