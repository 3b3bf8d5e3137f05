"""mixed_precision_step: ``finite`` as ``~jnp.any(jnp.isnan(g) | jnp.isinf(g))`` on each float16
leaf (TensorFlow's ``is_finite`` spelled out), the leaves combined with ``functools.reduce``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g16 = jax.grad(scaled_loss)(half)
    flags = [~jnp.any(jnp.isnan(a) | jnp.isinf(a)) for a in jax.tree_util.tree_leaves(g16)]
    finite = functools.reduce(operator.and_, flags)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    new_good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good,
            "finite": finite}
