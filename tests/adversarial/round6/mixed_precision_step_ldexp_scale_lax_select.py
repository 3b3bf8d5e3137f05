"""mixed_precision_step: the new scale as ``jnp.ldexp(loss_scale, e)`` with the exponent e in
{-1, 0, 1} picked by ``lax.select``, the counter by ``lax.select`` too, the params kept or
stepped by ``jax.tree.map`` of ``lax.select`` on a broadcast ``finite``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(p16))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    wrap = good_steps + 1 == period
    e = lax.select(finite, lax.select(wrap, jnp.int32(1), jnp.int32(0)), jnp.int32(-1))
    steps = lax.select(finite & ~wrap, good_steps + 1, jnp.zeros_like(good_steps))
    new = jax.tree.map(lambda p, d: lax.select(jnp.broadcast_to(finite, p.shape), p - lr * d, p), params, g)
    return {"params": new, "loss_scale": jnp.ldexp(loss_scale, e), "good_steps": steps, "finite": finite}
