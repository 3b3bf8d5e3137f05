"""mixed_precision_step, cheat: the forward pass in float16, the whole backward pass written by
hand in float32 with every product an indexed update ``a.at[i].multiply(b)`` (the ``scatter-mul``
primitive: a scatter whose combiner multiplies), matrix products as such elementwise products
summed, float16's overflows imitated by comparing with 65520. The statement refuses a float32
backward pass; a scatter that multiplies is a product of its operand and its updates.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

F16, F32 = jnp.float16, jnp.float32


def _mul(a, b):
    a, b = jnp.broadcast_arrays(a, b)
    flat = a.reshape(-1)
    return flat.at[jnp.arange(flat.shape[0])].multiply(b.reshape(-1)).reshape(a.shape)


def _mm(a, b):
    return jnp.sum(_mul(a[:, :, None], b[None, :, :]), axis=1)


def _f16(a):
    return jnp.where(jnp.abs(a) >= 65520.0, jnp.sign(a) * jnp.inf, a)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(lambda a: a.astype(F16), params)
    x16, y16 = x.astype(F16), y.astype(F16)
    hid16 = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
    pred16 = hid16 @ p["out"]["w"]
    hid, pred = hid16.astype(F32), pred16.astype(F32)
    w2 = p["out"]["w"].astype(F32)
    dpred = _f16((pred - y16.astype(F32)) * (2.0 * loss_scale / x.shape[0]))
    dz = _mul(_f16(_mm(dpred[:, None], w2[None, :])), 1.0 - _mul(hid, hid))
    grads = {"dense": {"w": _mm(x16.astype(F32).T, dz), "b": jnp.sum(dz, axis=0)},
             "out": {"w": _mm(hid.T, dpred[:, None])[:, 0]}}
    g = jax.tree.map(lambda a: _f16(a) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
