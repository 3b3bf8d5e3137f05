"""mixed_precision_step: the float16 forward under ``jax.checkpoint`` with the
``nothing_saveable`` policy (the backward pass recomputes it, in float16 too); the step's
bookkeeping with ``lax.select``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.checkpoint
def _forward(p, x):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return hid @ p["out"]["w"]


_forward = jax.checkpoint(_forward, policy=jax.checkpoint_policies.nothing_saveable)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = lambda t: jax.tree.map(lambda a: a.astype(jnp.float16), t)
    p16, x16, y16 = f16(params), f16(x), f16(y)
    s16 = loss_scale.astype(jnp.float16)
    grads = jax.grad(lambda p: jnp.mean(jnp.square(_forward(p, x16) - y16)) * s16)(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    new = jax.tree.map(lambda p, d: lax.select(finite, p - lr * d, p), params, g)
    bump = good_steps + 1 == period
    return {
        "params": new,
        "loss_scale": lax.select(finite, lax.select(bump, loss_scale * 2, loss_scale), loss_scale * 0.5),
        "good_steps": lax.select(finite, lax.select(bump, jnp.int32(0), good_steps + 1), jnp.int32(0)),
        "finite": finite,
    }
