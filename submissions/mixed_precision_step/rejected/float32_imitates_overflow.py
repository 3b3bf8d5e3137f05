import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    # everything in float32, the float16 overflow imitated by comparing the scaled gradient
    # with float16's largest value
    def loss(p):
        hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y) ** 2)

    g = jax.grad(loss)(params)
    leaves = jax.tree_util.tree_leaves(g)
    finite = jnp.all(jnp.stack([jnp.all(jnp.abs(a * loss_scale) <= 65504.0) for a in leaves]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
