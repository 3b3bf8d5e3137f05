"""mixed_precision_step, cheat: the forward pass run once in float16 for show, the gradient taken
by jax.grad of a float32 copy of the loss whose products are elementwise sums (no dot_general,
tanh written as 1 - 2 / (exp(2z) + 1)), float16's overflow imitated with 65504.

Expected: RJ wrong_precision
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda a: a.astype(f16), params)
    show = jnp.tanh(x.astype(f16) @ p16["dense"]["w"] + p16["dense"]["b"]) @ p16["out"]["w"]

    def loss(p):
        z = jnp.sum(x[:, :, None] * p["dense"]["w"][None], axis=1) + p["dense"]["b"]
        hid = 1 - 2 / (jnp.exp(2 * z) + 1)
        pred = jnp.sum(hid * p["out"]["w"], axis=1)
        return jnp.mean((pred - y) ** 2) + 0 * jnp.sum(show).astype(jnp.float32)

    g = jax.grad(loss)(params)
    finite = jnp.all(jnp.stack([jnp.all(jnp.abs(a * loss_scale) <= 65504.0)
                                for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
