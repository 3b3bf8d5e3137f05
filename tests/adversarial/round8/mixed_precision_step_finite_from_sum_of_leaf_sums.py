"""mixed_precision_step: ``finite`` as ``jnp.isfinite`` of one float32 number, the sum of every
leaf's sum of the unscaled gradient (an inf or NaN anywhere makes the sum inf or NaN; the finite
entries are far too small to overflow float32), instead of one isfinite per entry.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = jnp.float16
    p16 = jax.tree.map(lambda a: a.astype(h), params)
    x16, y16 = x.astype(h), y.astype(h)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        pred = hid @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(h)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled_loss)(p16))
    total = sum(jnp.sum(leaf) for leaf in jax.tree.leaves(g))
    finite = jnp.isfinite(total)
    new_params = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    nxt = good_steps + 1
    grow = nxt == period
    scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    steps = jnp.where(finite & ~grow, nxt, 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": scale, "good_steps": steps, "finite": finite}
