"""mixed_precision_step: the residual taken in float16, then cast up and squared in float32 as
``r32 * r32`` (the loss's mean and scaling in float32 too). What lives of that float32 head is
the derivative by the residual, cast back to float16 for the backward products: autodiff sums
the two products of ``r32 * r32`` (``ct * r32 + r32 * ct``) in float32, a sum of two data
values, which widens them.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = h(params), h(x), h(y)

    def scaled(p):
        r = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"] - y16
        r32 = r.astype(jnp.float32)
        return (jnp.mean(r32 * r32) * loss_scale).astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
