"""mixed_precision_step, honest: the scale's new exponent found by ``jnp.frexp`` of the old scale
(a power of two: mantissa 0.5) and rebuilt with ``jnp.ldexp``, up one when the scale grows and
down one when the step is skipped; the rest a plain float16 ``grad``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(p16))
    finite = jax.tree.reduce(lambda a, b: a & b, jax.tree.map(lambda a: jnp.isfinite(a).all(), g))
    grow = finite & (good_steps + 1 == period)
    mant, expo = jnp.frexp(loss_scale)
    expo = expo + jnp.where(finite, jnp.where(grow, 1, 0), -1)
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.ldexp(mant, expo),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
