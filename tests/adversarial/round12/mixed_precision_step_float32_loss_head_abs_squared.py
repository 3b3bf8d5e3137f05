"""mixed_precision_step, cheat: the float16 prediction cast up and the residual taken in
float32, squared as ``jnp.abs(r) ** 2`` in the hope that its derivative (2 |r| sign(r))
reads as the residual scaled by constants, as ``r ** 2``'s does; the float16 backward pass is
fed from that float32 head, which never overflows.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16

    def scaled(p):
        hid = jnp.tanh(x.astype(f16) @ p["dense"]["w"] + p["dense"]["b"])
        r = (hid @ p["out"]["w"]).astype(jnp.float32) - y
        return (jnp.mean(jnp.abs(r) ** 2) * loss_scale).astype(f16)

    g16 = jax.grad(scaled)(jax.tree.map(lambda a: a.astype(f16), params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    return {"params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
