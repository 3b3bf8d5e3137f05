"""mixed_precision_step, cheat: the gradient of the unscaled loss in float16 (every product and
tanh in float16), float16's overflow of the scaled pass imitated where it happens: the scaled
derivative of the loss by pred, and the scaled gradient, compared with 65504.

Expected: RJ (a known gap: the judge accepts it, submissions.yaml says why)
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda a: a.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2)

    pred = jnp.tanh(x16 @ p16["dense"]["w"] + p16["dense"]["b"]) @ p16["out"]["w"]
    inside = jnp.abs(2 * (pred - y16).astype(jnp.float32) / x.shape[0]) * loss_scale
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32), jax.grad(loss)(p16))
    finite = jnp.all(inside <= 65504.0) & jnp.all(jnp.stack([
        jnp.all(jnp.abs(a) * loss_scale <= 65504.0) for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
