"""mixed_precision_step: the unscaled float16 loss's ``jax.vjp`` pulled back at the scale itself
(cast to float16) rather than at 1 on loss * scale: the same float16 products.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

F16 = jnp.float16


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    x16, y16 = x.astype(F16), y.astype(F16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2)

    _, pull = jax.vjp(loss, jax.tree.map(lambda a: a.astype(F16), params))
    (g16,) = pull(loss_scale.astype(F16))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.array(True)
    for leaf in jax.tree.leaves(g):
        finite = finite & jnp.all(jnp.isfinite(leaf))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), 0.5 * loss_scale),
        "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": finite,
    }
