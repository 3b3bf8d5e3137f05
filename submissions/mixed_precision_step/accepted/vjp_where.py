"""mixed_precision_step, honest: jax.vjp of the scaled loss of the float16 params (cotangent one),
jnp.where for the finite branch, the scale multiplied into the per-example errors before the
mean.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda a: a.astype(f16), params)
    x16, y16, s16 = x.astype(f16), y.astype(f16), loss_scale.astype(f16)

    def scaled(p):
        hid = jnp.tanh(jnp.matmul(x16, p["dense"]["w"]) + p["dense"]["b"])
        err = jnp.matmul(hid, p["out"]["w"]) - y16
        return jnp.mean(err * err) * s16

    loss, pull = jax.vjp(scaled, p16)
    (grads,) = pull(jnp.ones_like(loss))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.array(True)
    for a in jax.tree_util.tree_leaves(g):
        finite = finite & jnp.isfinite(a).all()
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = (good_steps + 1) == period
    scale = jnp.where(finite, jnp.where(grow, loss_scale * 2.0, loss_scale), loss_scale * 0.5)
    good = jnp.where(finite & ~grow, good_steps + 1, jnp.zeros_like(good_steps))
    return {"params": new, "loss_scale": scale, "good_steps": good, "finite": finite}
