"""mixed_precision_step: the float16 gradient a ``jax.jit`` function of (params16, x16, y16,
scale16) called once, unscaled by multiplying with ``1.0 / loss_scale`` (exact: a power of
two), ``functools.reduce`` of ``&`` over the leaves' flags.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


@jax.jit
def _grads16(p, x, y, scale):
    def loss(p):
        hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
        return ((hid @ p["out"]["w"] - y) ** 2).mean() * scale
    return jax.grad(loss)(p)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    to16 = functools.partial(jnp.asarray, dtype=jnp.float16)
    g16 = _grads16(jax.tree.map(to16, params), to16(x), to16(y), to16(loss_scale))
    inv = 1.0 / loss_scale
    g = jax.tree.map(lambda a: a.astype(jnp.float32) * inv, g16)
    finite = functools.reduce(operator.and_, [jnp.isfinite(a).all() for a in jax.tree.leaves(g)])
    grow = (good_steps + 1) == period
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale * 0.5),
        "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": finite,
    }
