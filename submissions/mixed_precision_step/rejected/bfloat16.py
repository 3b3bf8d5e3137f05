# the same step in bfloat16: it never overflows where float16 does
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.bfloat16), params)
    x16, y16 = x.astype(jnp.bfloat16), y.astype(jnp.bfloat16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2)

    grads = jax.grad(lambda p: loss(p) * loss_scale.astype(jnp.bfloat16))(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.array(True)
    for leaf in jax.tree_util.tree_leaves(g):
        finite = jnp.logical_and(finite, jnp.all(jnp.isfinite(leaf)))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
