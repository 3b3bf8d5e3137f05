"""mixed_precision_step: the float16 network differentiated by ``jax.vjp``, but the cotangent
of its prediction written by hand in float32 (2 (pred - y) loss_scale / n from the float16
prediction cast up) and cast to float16 for the pullback: the loss and its derivative never
run in float16, only the network's backward products do.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16 = x.astype(jnp.float16)

    def net(p):
        return jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]

    pred, pull = jax.vjp(net, p16)
    dpred = 2.0 * (pred.astype(jnp.float32) - y) * loss_scale / x.shape[0]
    (grads,) = pull(dpred.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
