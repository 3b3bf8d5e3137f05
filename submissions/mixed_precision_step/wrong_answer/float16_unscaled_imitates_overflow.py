"""mixed_precision_step, cheat: the gradient of the unscaled loss in float16 (every product and
tanh in float16, so every rule on dtypes passes), float16's overflow of the scaled gradient
imitated by comparing |g| * loss_scale with 65504. Where the scaled backward pass overflows
inside (the derivative of the loss by pred) while no entry of the final gradient passes 65504,
it applies a step the float16 scaled gradient skips.

Expected: WA wrong_value
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda a: a.astype(f16), params)

    def loss(p):
        hid = jnp.tanh(x.astype(f16) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y.astype(f16)) ** 2)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32), jax.grad(loss)(p16))
    finite = jnp.all(jnp.stack([jnp.all(jnp.abs(a) * loss_scale <= 65504.0)
                                for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
