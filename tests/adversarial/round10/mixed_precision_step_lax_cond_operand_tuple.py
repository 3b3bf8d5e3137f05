"""mixed_precision_step: the older ``lax.cond(pred, true_fun, false_fun, operand)`` form with one
operand tuple (params, g, scale, counter), both branches returning the whole new state; the
gradient by ``jax.vjp`` of the float16 loss with the float16 scale as its cotangent.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _forward(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean((hid @ p["out"]["w"] - y) ** 2)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    cast = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = cast(params), cast(x), cast(y)
    _, pullback = jax.vjp(lambda p: _forward(p, x16, y16), p16)
    (g16,) = pullback(loss_scale.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.logical_and.reduce(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))

    def apply(op):
        p, grads, scale, count = op
        new_p = jax.tree_util.tree_map(lambda a, b: a - lr * b, p, grads)
        full = count + 1 == period
        return new_p, jnp.where(full, scale * 2.0, scale), jnp.where(full, 0, count + 1).astype(jnp.int32)

    def skip(op):
        p, _, scale, _ = op
        return p, scale * 0.5, jnp.zeros((), jnp.int32)

    new_p, new_scale, new_count = lax.cond(finite, apply, skip, (params, g, loss_scale, good_steps))
    return {"params": new_p, "loss_scale": new_scale, "good_steps": new_count, "finite": finite}
