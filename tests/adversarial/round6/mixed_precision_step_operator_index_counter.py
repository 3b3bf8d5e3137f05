"""mixed_precision_step: the counter's wrap decided in Python through ``operator.index`` of the
traced ``good_steps`` (what ``range`` and list indexing call), looking like an integer
conversion rather than a branch.

Problem: mixed_precision_step
Expected: RJ traced_value_concretized
"""

import operator

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = h(params), h(x), h(y)

    def scaled(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    wraps = operator.index(good_steps) + 1 == period
    grown = loss_scale * 2 if wraps else loss_scale
    count = jnp.int32(0) if wraps else good_steps + 1
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    return {"params": new,
            "loss_scale": jnp.where(finite, grown, loss_scale / 2),
            "good_steps": jnp.where(finite, count, 0).astype(jnp.int32),
            "finite": finite}
