"""mixed_precision_step, cheat: the float16 gradient kept for ``finite`` and the rule's float16
products, but the update from a float32 backward pass with no product and no square of data
at all: each square is read from a constant table of the 65536 float16 values' squares (in
float32), indexed by the float16 bits (``lax.bitcast_convert_type`` to uint16), a second lookup
correcting the float16 rounding; each product is a difference of two such squares
(quarter squares), scaled by constants. Only sums, constant scalings, casts and gathers.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

f16, f32 = jnp.float16, jnp.float32
_SQUARES = np.arange(65536, dtype=np.uint16).view(np.float16).astype(np.float32)
_SQUARES = np.where(np.isfinite(_SQUARES), _SQUARES, 0.0) ** 2


def _table(t):
    bits = lax.bitcast_convert_type(t.astype(f16), jnp.uint16).astype(jnp.int32)
    return jnp.take(jnp.asarray(_SQUARES), bits)


def _square(t):
    # t in [-1, 1]: t^2 = hi^2 + 2 hi lo + lo^2, hi the float16 rounding of t
    hi = t.astype(f16).astype(f32)
    s = (t - hi) * 2048.0
    cross = (_table(hi + s) - _table(hi - s)) * (0.25 / 2048.0)
    return _table(hi) + 2.0 * cross


def _times(a, bound_a, b, bound_b):
    u, v = a * (1.0 / bound_a), b * (1.0 / bound_b)
    return (_square((u + v) * 0.5) - _square((u - v) * 0.5)) * (bound_a * bound_b)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(f16)

    g16 = jax.grad(scaled)(p16)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g16)]))

    hid = jnp.tanh(x16 @ p16["dense"]["w"] + p16["dense"]["b"]).astype(f32)
    pred = (hid.astype(f16) @ p16["out"]["w"]).astype(f32)
    inv_n = 1.0 / x.shape[0]
    r = (pred - y) * 2.0                       # n * dloss/dpred, |r| <= 48
    d_w2 = _times(hid, 1.0, r[:, None], 48.0).sum(0) * inv_n
    dhid = _times(r[:, None], 48.0, params["out"]["w"][None, :], 2.0)     # |dhid| <= 96
    dz = _times(dhid, 96.0, 1.0 - _square(hid), 1.0)
    d_w = _times(x[:, :, None], 4.0, dz[:, None, :], 96.0).sum(0) * inv_n
    g = {"dense": {"w": d_w, "b": dz.sum(0) * inv_n}, "out": {"w": d_w2}}
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
