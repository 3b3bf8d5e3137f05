"""mixed_precision_step: the forward in float16 (products and tanh as asked, so the required
float16 operations exist), but the backward written by hand in int32 fixed point (values times
2^10, integer matrix products, shifts back), converted to float32 and scaled; the overflow
imitated by comparing with 65504.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp

ONE = 1 << 10


def _fix(a):
    return jnp.round(a.astype(jnp.float32) * ONE).astype(jnp.int32)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f = jnp.float16
    W, b, w2 = (params["dense"]["w"].astype(f), params["dense"]["b"].astype(f),
                params["out"]["w"].astype(f))
    x16, y16 = x.astype(f), y.astype(f)
    hid = jnp.tanh(x16 @ W + b)
    pred = hid @ w2
    n = x.shape[0]
    dpred = _fix((pred - y16) * (2.0 / n))
    dw2 = (_fix(hid).T @ dpred) >> 10
    dz = ((dpred[:, None] * _fix(w2)[None, :]) >> 10) * (ONE - ((_fix(hid) * _fix(hid)) >> 10)) >> 10
    dW = (_fix(x16).T @ dz) >> 10
    db = dz.sum(0)
    g = {"dense": {"w": dW.astype(jnp.float32) / ONE, "b": db.astype(jnp.float32) / ONE},
         "out": {"w": dw2.astype(jnp.float32) / ONE}}
    big = jnp.array(False)
    for a in jax.tree_util.tree_leaves(g):
        big = big | jnp.any(jnp.abs(a * loss_scale) > 65504.0)
    finite = ~big
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
