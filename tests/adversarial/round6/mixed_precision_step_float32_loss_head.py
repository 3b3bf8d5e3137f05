"""mixed_precision_step: the network in float16 but the loss head in float32 (the residual and
its square cast up, the usual "loss in float32" habit), so the scaled derivative by pred is
float32 and overflows only when cast back to float16 for the products. The statement asks for
the loss in float16 and the gradient of it in float16, so the judge refuses this. The float32
square is dead (only its derivative lives), and what lives in float32 is the residual and its
scaling by constants, one data operand each as in an honest unscale and update; but the float16
backward products read that derivative, computed from the data in float32 (``widened``).

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, x16 = h(params), h(x)

    def scaled(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        r = pred.astype(jnp.float32) - y
        return (jnp.mean(r * r) * loss_scale).astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
