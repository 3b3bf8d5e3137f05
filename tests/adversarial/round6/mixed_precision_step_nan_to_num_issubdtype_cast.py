"""mixed_precision_step: a cast helper that converts only floating leaves (a Python branch on
``jnp.issubdtype`` of the static dtype), the gradient and x taken together by
``jax.grad(..., argnums=(0, 1))`` (x's gradient dropped), the update on
``jnp.nan_to_num(g)`` kept or dropped by ``jnp.where`` per leaf.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def cast_floating(tree, dtype):
    def one(a):
        return a.astype(dtype) if jnp.issubdtype(a.dtype, jnp.floating) else a
    return jax.tree_util.tree_map(one, tree)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16, x16, y16 = cast_floating((params, x, y), jnp.float16)

    def scaled(p, xs):
        pred = jnp.tanh(xs @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(jnp.float16)

    grads, _ = jax.grad(scaled, argnums=(0, 1))(p16, x16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]).all()
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * jnp.nan_to_num(d), p), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
