"""mixed_precision_step: casts by calling the type, ``jax.tree.map(jnp.float16, params)`` and
``jnp.float16(x)``, back by ``jnp.float32(...)``; the scale's factor picked by nested
``jnp.where`` and multiplied in.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(jnp.float16, params)
    x16, y16, s16 = jnp.float16(x), jnp.float16(y), jnp.float16(loss_scale)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * s16

    g = jax.tree.map(lambda a: jnp.float32(a) / loss_scale, jax.grad(scaled_loss)(p16))
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    factor = jnp.where(finite, jnp.where(grow, 2.0, 1.0), 0.5)
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": loss_scale * factor,
        "good_steps": jnp.int32(jnp.where(finite & ~grow, good_steps + 1, 0)),
        "finite": finite,
    }
