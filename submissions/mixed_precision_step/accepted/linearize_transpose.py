"""mixed_precision_step, honest: the gradient as the transpose of the scaled loss's
linearization (jax.linearize, then jax.linear_transpose applied to a float16 one), all in
float16.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    value, lin = jax.linearize(scaled, half)
    (grads,) = jax.linear_transpose(lin, half)(jnp.ones_like(value))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
