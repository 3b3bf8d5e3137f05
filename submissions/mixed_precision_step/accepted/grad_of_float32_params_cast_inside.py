"""mixed_precision_step, honest: jax.grad with respect to the float32 params, cast to float16
inside the loss (the gradient flows back through the cast and comes out float32 after it; the
products and tanh still run in float16, and the overflow happens in float16 before the cast),
the sum over n divided by n for the mean, and finite from the float16 gradient's leaves.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    def scaled_loss(p32):
        p = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), p32)
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        r = hid @ p["out"]["w"] - y.astype(jnp.float16)
        return jnp.sum(r * r) / jnp.float16(x.shape[0]) * loss_scale.astype(jnp.float16)

    grads = jax.grad(scaled_loss)(params)
    g = jax.tree_util.tree_map(lambda a: a / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
