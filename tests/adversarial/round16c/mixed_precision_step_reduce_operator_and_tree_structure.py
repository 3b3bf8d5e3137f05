"""mixed_precision_step: the leaves taken with ``jax.tree_util.tree_structure`` and put back
with ``treedef.unflatten``, ``finite`` as ``functools.reduce(operator.and_, ...)`` of
``jnp.isfinite(g).all()``, the float16 model written with ``jnp.dot`` on 2-d by 1-d.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


def _forward(p, x):
    hid = jnp.tanh(jnp.dot(x, p["dense"]["w"]) + p["dense"]["b"])
    return jnp.dot(hid, p["out"]["w"])


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    treedef = jax.tree_util.tree_structure(params)
    leaves32 = treedef.flatten_up_to(params)
    half = treedef.unflatten([leaf.astype(jnp.float16) for leaf in leaves32])
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled(p):
        err = _forward(p, x16) - y16
        return (err * err).mean() * loss_scale.astype(jnp.float16)

    g16 = treedef.flatten_up_to(jax.grad(scaled)(half))
    g = [leaf.astype(jnp.float32) / loss_scale for leaf in g16]
    finite = functools.reduce(operator.and_, (jnp.isfinite(leaf).all() for leaf in g))
    stepped = [jnp.where(finite, p - lr * d, p) for p, d in zip(leaves32, g)]
    wrap = good_steps + 1 >= period
    return {
        "params": treedef.unflatten(stepped),
        "loss_scale": jnp.where(finite, jnp.where(wrap, 2 * loss_scale, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~wrap, good_steps + 1, jnp.zeros_like(good_steps)),
        "finite": finite,
    }
