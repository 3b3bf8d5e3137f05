"""mixed_precision_step: ``jax.value_and_grad(..., has_aux=True)`` (the float16 prediction as
the auxiliary output), the scale passed to the loss as an argument it does not differentiate,
``lax.cond`` with closures and no operand choosing the whole new state.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def scaled_loss(p, x, y, scale):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    loss = ((pred - y) ** 2).mean()
    return loss * scale, pred


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = lambda a: a.astype(jnp.float16)
    (_, _pred), g16 = jax.value_and_grad(scaled_loss, has_aux=True)(
        jax.tree_util.tree_map(half, params), half(x), half(y), half(loss_scale))
    grads = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(grads)]).all()

    def good():
        new = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
        grow = good_steps + 1 == period
        return (new, jnp.where(grow, 2.0 * loss_scale, loss_scale),
                jnp.where(grow, 0, good_steps + 1).astype(jnp.int32))

    def overflow():
        return params, loss_scale / 2.0, jnp.zeros((), jnp.int32)

    new_params, new_scale, new_good = lax.cond(finite, good, overflow)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good, "finite": finite}
