"""mixed_precision_step: the update applied in a ``lax.fori_loop`` of one trip (written as a
loop over micro-steps, of which there is one), the flag ``finite`` read inside the body by
``jnp.where`` per leaf; the scale and counter outside.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

MICRO_STEPS = 1


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    c16 = lambda a: a.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(c16(x) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - c16(y)) ** 2) * c16(loss_scale)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(jax.tree.map(c16, params)))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))

    def micro(i, p):
        return jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), p, g)

    new = lax.fori_loop(0, MICRO_STEPS, micro, params)
    grow = good_steps + 1 == period
    return {
        "params": new,
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
