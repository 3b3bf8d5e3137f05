"""mixed_precision_step: honest float16 work, plus, for periods above 4 only (a Python branch on
the static ``period``), a float32 tanh of x that reaches the output (added times zero): the
rules must hold at every static value the cases use, not only at the one traced first.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = h(params), h(x), h(y)

    def scaled(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    if period > 4:
        g["out"]["w"] = g["out"]["w"] + 0.0 * jnp.tanh(x @ params["dense"]["w"]).sum()
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
