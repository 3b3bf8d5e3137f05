"""mixed_precision_step: the new scale written as one product, ``loss_scale * 2.0 ** delta``,
with delta = +1 when the period is complete, -1 on overflow and 0 otherwise (an int32 picked by
``jnp.where`` from the decisions ``finite`` and ``good_steps + 1 == period``); the gradient by
``jax.grad`` in float16 as the statement says.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    return jnp.mean((pred - y) ** 2)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    to16 = lambda a: a.astype(jnp.float16)
    p16 = jax.tree.map(to16, params)
    scale16 = to16(loss_scale)
    grads = jax.grad(lambda p: _loss(p, to16(x), to16(y)) * scale16)(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    full = good_steps + 1 == period
    delta = jnp.where(finite, jnp.where(full, 1, 0), -1)
    new_params = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    return {"params": new_params,
            "loss_scale": loss_scale * 2.0 ** delta,
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
