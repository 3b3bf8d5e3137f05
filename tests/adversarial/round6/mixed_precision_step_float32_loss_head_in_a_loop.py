"""mixed_precision_step: the float32 loss head (the float16 prediction cast up, the residual
squared in float32) computed inside a ``fori_loop`` of one trip, so that what float16 reads is a
loop's result rather than a float32 subtraction's: a loop whose body computes in float32 makes
its results float32 work too.

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
        r = jax.lax.fori_loop(0, 1, lambda i, r: r - y, pred.astype(jnp.float32))
        return (jnp.mean(r * r) * loss_scale).astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
