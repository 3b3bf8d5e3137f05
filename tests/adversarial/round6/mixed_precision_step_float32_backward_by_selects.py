"""mixed_precision_step: the forward in float16 (its two matrix products and tanh, as asked), and
a float32 backward pass written by hand with no float32 product of two data values: each
product a * b is rebuilt from b's bits (``bitcast``, shifts, masks: integer work) as a sum of
a's copies with their exponents shifted, chosen by ``jnp.where``; overflow imitated by comparing
the scaled intermediates with 65504. A float32 backward pass the statement refuses.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""

import jax
import jax.numpy as jnp
from jax import lax

LIMIT = 65504.0


def _fmul(a, b):
    a, b = jnp.broadcast_arrays(a, b)
    ab = lax.bitcast_convert_type(a, jnp.int32)
    bb = lax.bitcast_convert_type(b, jnp.int32)
    negative = (ab < 0) != (bb < 0)
    mag = lax.bitcast_convert_type(ab & 0x7FFFFFFF, jnp.int32)
    ea = (mag >> 23) & 0xFF
    eb = (bb >> 23) & 0xFF
    mb = (bb & 0x7FFFFF) | 0x800000
    total = jnp.zeros(a.shape, jnp.float32)
    for k in range(24):
        shift = eb - 127 + k - 23
        field = ea + shift
        part = lax.bitcast_convert_type(mag + (shift << 23), jnp.float32)
        on = ((mb >> k) & 1) == 1
        total = total + jnp.where(on & (field > 0) & (ea > 0) & (eb > 0), part, 0.0)
    return jnp.where(negative, -total, total)


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
