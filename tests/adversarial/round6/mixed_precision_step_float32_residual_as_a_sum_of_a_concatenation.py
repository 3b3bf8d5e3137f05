"""mixed_precision_step: the float32 loss head with its residual written as a sum over a
concatenation of the float16 prediction cast up and the negated labels (each given a leading
axis of one), squared as a power of two (whose derivative is a scaling): every float32 equation
has at most one data operand, and a concatenation only moves values; but autodiff transposes
the concatenation into a ``split`` of the residual's float32 derivative, which is not a move
the dataflow knows, so what float16 reads is widened.

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
        r = jnp.concatenate([pred.astype(jnp.float32)[None], -y[None]]).sum(0)
        return (jnp.mean(r ** 2) * loss_scale).astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
