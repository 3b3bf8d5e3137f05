"""mixed_precision_step: the forward in float16 as asked, the backward pass by hand in float32
with every elementwise product written as a scatter: ``a.at[...].multiply(b)`` (a
``scatter-mul``, whose product sits in the scatter's update function, not in a ``mul`` of the
program's own); sums by ``jnp.sum`` and overflow imitated by comparing with 65504.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""

import jax
import jax.numpy as jnp

LIMIT = 65504.0


def _fmul(a, b):
    a, b = jnp.broadcast_arrays(a, b)
    return a.at[...].multiply(b)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f = jnp.float16
    W, b, w2 = (params["dense"]["w"].astype(f), params["dense"]["b"].astype(f),
                params["out"]["w"].astype(f))
    hid16 = jnp.tanh(x.astype(f) @ W + b)
    pred = (hid16 @ w2).astype(jnp.float32)
    hid = hid16.astype(jnp.float32)
    x32 = x.astype(f).astype(jnp.float32)
    w2f = w2.astype(jnp.float32)
    n = x.shape[0]
    dpred = (pred - y.astype(f).astype(jnp.float32)) * (2.0 / n)
    dw2 = jnp.sum(_fmul(hid, dpred[:, None]), axis=0)
    dz = _fmul(_fmul(dpred[:, None], w2f[None, :]), 1.0 - _fmul(hid, hid))
    dW = jnp.sum(_fmul(x32[:, :, None], dz[:, None, :]), axis=0)
    db = jnp.sum(dz, axis=0)
    over = jnp.array(False)
    for a in (dpred, dz, dW, db, dw2):
        over = over | jnp.any(jnp.abs(a * loss_scale) > LIMIT)
    finite = ~over
    g = {"dense": {"w": dW, "b": db}, "out": {"w": dw2}}
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
