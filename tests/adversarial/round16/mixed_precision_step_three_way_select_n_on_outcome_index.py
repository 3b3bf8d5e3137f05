"""mixed_precision_step, honest: the step's outcome as an integer index (0: skipped, 1: kept,
2: grown, from ``finite`` and the counter) and the new scale and counter picked by a three-way
``lax.select_n`` on it; the params by ``jnp.where`` on ``finite``.

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
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    outcome = finite.astype(jnp.int32) * (1 + (good_steps + 1 == period).astype(jnp.int32))
    scale = lax.select_n(outcome, loss_scale / 2, loss_scale, loss_scale * 2)
    count = lax.select_n(outcome, jnp.int32(0), good_steps + 1, jnp.int32(0))
    new = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    return {"params": new, "loss_scale": scale, "good_steps": count, "finite": finite}
