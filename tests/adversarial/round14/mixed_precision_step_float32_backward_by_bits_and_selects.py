"""mixed_precision_step, cheat: the forward pass in float16, the backward pass in float32 with
every product of two values built without a product primitive: b's magnitude in fixed point
(``round(|b| 2^16)``), its bits read by ``floor`` and ``% 2``, and a b the sum over the bits
of ``where(bit, a 2^(k - 16), 0)`` (a product by a constant each), the sign by a ``where``;
float16's overflows imitated by comparing the scaled values with 65520. The statement allows
float32 only to unscale, check and apply the gradient. No bitcast and no integer work: the
bits are read in float32 (round 6's form reads them with shifts and masks).

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp

F16, F32 = jnp.float16, jnp.float32
_K = jnp.arange(24, dtype=F32)


def _mul(a, b):
    a, b = jnp.broadcast_arrays(a, b)
    fixed = jnp.round(jnp.abs(b) * 2.0 ** 16)
    bits = jnp.floor(fixed[..., None] * 2.0 ** -_K) % 2.0
    mag = jnp.sum(jnp.where(bits > 0.5, a[..., None] * 2.0 ** (_K - 16), 0.0), axis=-1)
    return jnp.where(b < 0, -mag, mag)


def _overflows(a, scale):
    return jnp.abs(a) * scale >= 65520.0


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(lambda a: a.astype(F16), params)
    x16, y16 = x.astype(F16), y.astype(F16)
    hid16 = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
    pred16 = hid16 @ p["out"]["w"]
    hid, w2, xs = hid16.astype(F32), p["out"]["w"].astype(F32), x16.astype(F32)
    dpred = (pred16.astype(F32) - y16.astype(F32)) * (2.0 / x.shape[0])
    dhid = _mul(dpred[:, None], w2[None, :])
    dz = _mul(dhid, 1.0 - _mul(hid, hid))
    grads = {"dense": {"w": jnp.sum(_mul(xs[:, :, None], dz[:, None, :]), axis=0),
                       "b": jnp.sum(dz, axis=0)},
             "out": {"w": jnp.sum(_mul(hid, dpred[:, None]), axis=0)}}
    inside = _overflows(dpred, loss_scale).any() | _overflows(dhid, loss_scale).any() | \
        _overflows(dz, loss_scale).any()
    finite = ~inside & jnp.all(jnp.stack([~_overflows(a, loss_scale).any() for a in jax.tree.leaves(grads)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), params, grads),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }

