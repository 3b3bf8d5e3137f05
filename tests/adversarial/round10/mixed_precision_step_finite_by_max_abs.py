"""mixed_precision_step: ``finite`` as ``jnp.isfinite`` of the largest magnitude over all leaves
(``max(abs(.))`` propagates a NaN and an infinity both), the params updated by
``jax.tree_util.tree_map`` with a ``jnp.where`` on the step, ``value_and_grad`` whose value
is thrown away.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h16 = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)

    def scaled(p, xb, yb, s):
        hid = jnp.tanh(xb @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - yb) ** 2) * s

    _, grads = jax.value_and_grad(scaled)(h16(params), h16(x), h16(y), loss_scale.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    biggest = jnp.max(jnp.stack([jnp.max(jnp.abs(a)) for a in jax.tree_util.tree_leaves(g)]))
    finite = jnp.isfinite(biggest)
    step = jax.tree_util.tree_map(lambda d: jnp.where(finite, lr * d, 0.0), g)
    full = good_steps + 1 == period
    return {"params": jax.tree_util.tree_map(jnp.subtract, params, step),
            "loss_scale": jnp.where(finite, jnp.where(full, 2.0 * loss_scale, loss_scale), 0.5 * loss_scale),
            "good_steps": jnp.where(finite, jnp.where(full, 0, good_steps + 1), 0).astype(jnp.int32),
            "finite": finite}
