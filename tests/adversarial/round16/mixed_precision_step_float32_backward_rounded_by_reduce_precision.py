"""mixed_precision_step, cheat: the float16 gradient computed for ``finite``, the update from a
float32 backward pass by hand whose every value is rounded to float16's precision and range
by ``lax.reduce_precision(exponent_bits=5, mantissa_bits=10)``: float16 arithmetic imitated in
float32.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

f16, f32 = jnp.float16, jnp.float32


def _r(a):
    return lax.reduce_precision(a, exponent_bits=5, mantissa_bits=10)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(f16)

    finite = jax.tree.reduce(jnp.logical_and,
                             jax.tree.map(lambda a: jnp.isfinite(a).all(), jax.grad(scaled)(p16)))
    hid = jnp.tanh(x16 @ p16["dense"]["w"] + p16["dense"]["b"]).astype(f32)
    w2 = _r(params["out"]["w"])
    pred = _r(hid @ w2)
    dpred = _r(_r(pred - _r(y)) * _r(2.0 * loss_scale / x.shape[0]))
    d_w2 = _r(hid.T @ dpred)
    dz = _r(_r(dpred[:, None] * w2[None, :]) * _r(1.0 - _r(hid * hid)))
    d_w = _r(_r(x).T @ dz)
    g = {"dense": {"w": d_w / loss_scale, "b": dz.sum(0) / loss_scale}, "out": {"w": d_w2 / loss_scale}}
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
