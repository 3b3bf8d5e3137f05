"""mixed_precision_step, cheat: the forward pass in float16, the backward pass in fixed point: each
product of two values the high half of a product of int32 integers (``lax.mulhi``, the
``mulhi`` primitive: (A B) >> 32, which for A = a 2^24 and B = b 2^24 is a b 2^16), sums in
int32 and float32, float16's overflows imitated by comparing the scaled values with 65520. The
statement refuses a backward pass in an integer type; ``mulhi`` is a product as ``mul`` is.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

F16, F32, I32 = jnp.float16, jnp.float32, jnp.int32


def _fixed(a, bits):
    return jnp.round(a * 2.0 ** bits).astype(I32)


def _mul(a, b, abits=24, bbits=24):
    """a * b for |a| < 2^(31 - abits), |b| < 2^(31 - bbits), in float32."""
    hi = lax.mulhi(*jnp.broadcast_arrays(_fixed(a, abits), _fixed(b, bbits)))
    return hi.astype(F32) * 2.0 ** (32 - abits - bbits)


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
    grads = {"dense": {"w": jnp.sum(_mul(xs[:, :, None], dz[:, None, :], 20, 24), axis=0),
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
