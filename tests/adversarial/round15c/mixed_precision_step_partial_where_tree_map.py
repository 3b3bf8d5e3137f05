"""mixed_precision_step: the skip as ``jax.tree.map(functools.partial(jnp.where, finite), stepped,
params)``, the unscaled gradient by ``jnp.reciprocal(loss_scale)`` times the float32 cast, the
counter and the scale from ``jnp.where`` on ``good_steps + 1 >= period``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _forward(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean(jnp.square(hid @ p["out"]["w"] - y))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    cast = functools.partial(jax.tree.map, lambda a: a.astype(jnp.float16))
    p16, x16, y16 = cast(params), cast(x), cast(y)
    g16 = jax.grad(lambda p: _forward(p, x16, y16) * loss_scale.astype(jnp.float16))(p16)
    inv = jnp.reciprocal(loss_scale)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) * inv, g16)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    stepped = jax.tree.map(lambda p, d: p - lr * d, params, g)
    new_params = jax.tree.map(functools.partial(jnp.where, finite), stepped, params)
    grow = good_steps + 1 >= period
    scale = jnp.where(finite, jnp.where(grow, 2.0 * loss_scale, loss_scale), 0.5 * loss_scale)
    good = jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": scale, "good_steps": good, "finite": finite}
