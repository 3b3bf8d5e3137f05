"""mixed_precision_step: the loss as a function of (params, x, y, scale) with the data passed
as arguments rather than closed over, ``jax.value_and_grad(..., argnums=0)``, the update with
``jax.tree_util.tree_map(jnp.subtract, ...)``.

Problem: mixed_precision_step
Expected: AC
"""

import jax
import jax.numpy as jnp
from functools import partial

half = partial(jnp.asarray, dtype=jnp.float16)


def scaled_loss(p, x, y, scale):
    hid = jnp.tanh(jnp.dot(x, p["dense"]["w"]) + p["dense"]["b"])
    pred = jnp.dot(hid, p["out"]["w"])
    return jnp.mean(jnp.square(pred - y)) * scale


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(half, params)
    _, grads = jax.value_and_grad(scaled_loss, argnums=0)(p16, half(x), half(y), half(loss_scale))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    ok = jax.tree_util.tree_map(lambda a: jnp.isfinite(a).all(), g)
    finite = jnp.all(jnp.array(jax.tree_util.tree_leaves(ok)))
    stepped = jax.tree_util.tree_map(jnp.subtract, params,
                                     jax.tree_util.tree_map(lambda a: lr * a, g))
    grow = (good_steps + 1) == period
    return {
        "params": jax.tree_util.tree_map(lambda new, old: jnp.where(finite, new, old), stepped, params),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2.0, loss_scale), loss_scale * 0.5),
        "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": finite,
    }
