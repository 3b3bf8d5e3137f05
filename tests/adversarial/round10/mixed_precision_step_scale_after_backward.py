"""mixed_precision_step, wrong answer: the student differentiates the unscaled float16 loss and
multiplies the float16 gradient by the scale afterwards (then divides it back in float32): an
overflow is seen only where a gradient entry times the scale passes 65504, not inside the
backward pass, where the statement's scaled loss overflows in some cases.

Problem: mixed_precision_step
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)

    def loss(p):
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y.astype(jnp.float16)) ** 2)

    s16 = loss_scale.astype(jnp.float16)
    g16 = jax.tree_util.tree_map(lambda a: a * s16, jax.grad(loss)(p16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    full = good_steps + 1 == period
    return {"params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.where(finite, jnp.where(full, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
