"""mixed_precision_step: each stage in a ``jax.named_scope``, the mean written as a float16 sum
divided by ``x.shape[0]``, the gradient's leaves unscaled by ``jnp.divide`` and checked with
``~jnp.any(~jnp.isfinite(...))``, the counter's wrap by ``jnp.greater_equal``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    with jax.named_scope("cast"):
        p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
        x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
        s16 = loss_scale.astype(jnp.float16)

    def scaled_loss(p):
        with jax.named_scope("forward"):
            hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
            err = hid @ p["out"]["w"] - y16
            return jnp.sum(err * err) / x.shape[0] * s16

    with jax.named_scope("backward"):
        grads = jax.grad(scaled_loss)(p16)
    with jax.named_scope("update"):
        g = jax.tree_util.tree_map(lambda a: jnp.divide(a.astype(jnp.float32), loss_scale), grads)
        bad = jnp.array(False)
        for leaf in jax.tree_util.tree_leaves(g):
            bad = bad | jnp.any(~jnp.isfinite(leaf))
        finite = ~bad
        new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
        wrap = jnp.greater_equal(good_steps + 1, period)
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
