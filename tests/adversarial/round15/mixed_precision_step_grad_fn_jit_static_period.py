"""mixed_precision_step, honest: the float16 gradient from a ``jax.jit`` function, the whole step
another ``jax.jit`` with ``lr`` and ``period`` in ``static_argnames``, called from the entry;
the counter updated by ``lax.cond`` on ``finite`` and the growth by ``jnp.where``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def _grads16(p16, x16, y16, s16):
    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * s16

    return jax.grad(loss)(p16)


@partial(jax.jit, static_argnames=("lr", "period"))
def _step(params, x, y, loss_scale, good_steps, lr, period):
    half = lambda a: a.astype(jnp.float16)
    grads = _grads16(jax.tree.map(half, params), half(x), half(y), half(loss_scale))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.asarray([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    count = lax.cond(finite, lambda n: n + 1, lambda n: jnp.zeros_like(n), good_steps)
    grow = count == period
    return {"params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.where(grow, 2 * loss_scale, jnp.where(finite, loss_scale, loss_scale / 2)),
            "good_steps": jnp.where(grow, 0, count).astype(jnp.int32), "finite": finite}


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    return _step(params, x, y, loss_scale, good_steps, lr=lr, period=period)
