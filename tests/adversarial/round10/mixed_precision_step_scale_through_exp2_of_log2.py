"""mixed_precision_step, wrong answer: the student unscales with ``jnp.reciprocal(loss_scale)``
(fine: a function of the scalar scale, not of params, x or y) and does the scale arithmetic on
its exponent, ``exp2(log2(loss_scale) + delta)``, which float32 does not give exactly: a halved
32768 comes back as 16383.984, and the scale must match exactly.

Problem: mixed_precision_step
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = lambda a: jnp.asarray(a, dtype=jnp.float16)
    p16, x16, y16 = jax.tree_util.tree_map(half, params), half(x), half(y)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y16
        return jnp.mean(err * err) * half(loss_scale)

    inv_scale = jnp.reciprocal(loss_scale)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) * inv_scale, jax.grad(scaled_loss)(p16))
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    full = good_steps + 1 >= period
    delta = jnp.where(finite, jnp.where(full, 1.0, 0.0), -1.0)
    new_scale = jnp.exp2(jnp.log2(loss_scale) + delta)
    return {"params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": new_scale.astype(jnp.float32),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
