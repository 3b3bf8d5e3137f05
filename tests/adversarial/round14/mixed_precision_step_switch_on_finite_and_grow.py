"""mixed_precision_step: the three outcomes (skip, keep the scale, double it) as the branches of
``lax.switch`` on ``finite * (1 + grow)``, each returning the whole state dict.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

F16 = jnp.float16


def _loss(p, x, y):
    hid = jnp.tanh(jnp.dot(x, p["dense"]["w"]) + p["dense"]["b"])
    pred = jnp.dot(hid, p["out"]["w"])
    return jnp.mean(jnp.square(pred - y))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(F16), params)
    grads = jax.grad(lambda p: _loss(p, x.astype(F16), y.astype(F16)) * loss_scale.astype(F16))(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jax.tree.reduce(jnp.logical_and, jax.tree.map(lambda a: jnp.isfinite(a).all(), g))
    grow = good_steps + 1 == period

    def skip(ops):
        params, g, scale, steps = ops
        return {"params": params, "loss_scale": scale / 2, "good_steps": jnp.int32(0)}

    def keep(ops):
        params, g, scale, steps = ops
        new = jax.tree.map(lambda p, d: p - lr * d, params, g)
        return {"params": new, "loss_scale": scale, "good_steps": steps + 1}

    def double(ops):
        params, g, scale, steps = ops
        new = jax.tree.map(lambda p, d: p - lr * d, params, g)
        return {"params": new, "loss_scale": scale * 2, "good_steps": jnp.int32(0)}

    index = finite.astype(jnp.int32) * (1 + grow.astype(jnp.int32))
    out = lax.switch(index, (skip, keep, double), (params, g, loss_scale, good_steps))
    return {**out, "finite": finite}
