"""mixed_precision_step: ``lax.cond(finite, good, bad)`` with no operands, both branches closures
over the params, the gradient and the counters, each returning the whole result dict.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    to16 = lambda a: jnp.asarray(a, jnp.float16)

    def scaled(p):
        hid = jnp.tanh(to16(x) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - to16(y)) ** 2) * to16(loss_scale)

    g = jax.tree.map(lambda a: jnp.asarray(a, jnp.float32) / loss_scale,
                     jax.grad(scaled)(jax.tree.map(to16, params)))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period

    def good():
        return {"params": jax.tree.map(lambda p, d: p - lr * d, params, g),
                "loss_scale": jnp.where(grow, loss_scale * 2, loss_scale),
                "good_steps": jnp.where(grow, 0, good_steps + 1).astype(jnp.int32)}

    def bad():
        return {"params": params, "loss_scale": loss_scale / 2,
                "good_steps": jnp.zeros_like(good_steps)}

    return {**lax.cond(finite, good, bad), "finite": finite}
