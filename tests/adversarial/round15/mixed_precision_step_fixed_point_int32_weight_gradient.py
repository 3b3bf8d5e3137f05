"""mixed_precision_step, cheat: integer arithmetic standing for float16 in the backward pass: the
dense weights' gradient x^T dz computed on int32 fixed-point copies of x and dz (scaled by
2^10 and rounded), as elementwise int32 products summed over the examples, then scaled back
and cast to float16: products of two values computed from the arrays, in an integer type.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp

f16, f32 = jnp.float16, jnp.float32


def _fixed(a, bits):
    return jnp.round(a.astype(f32) * 2.0 ** bits).astype(jnp.int32)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(lambda a: a.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)
    hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    n = x.shape[0]
    dpred = (pred - y16) * (2 * loss_scale.astype(f16)) / jnp.asarray(n, f16)
    d_w2 = dpred @ hid
    dz = (dpred[:, None] * p["out"]["w"][None, :]) * (1 - hid * hid)
    xi, dzi = _fixed(x16, 10), _fixed(dz / 1024, 10)
    prod = (xi[:, :, None] * dzi[:, None, :]).sum(0)
    d_w = (prod.astype(f32) * (1024.0 / 2.0 ** 20)).astype(f16)
    grads = {"dense": {"w": d_w, "b": dz.sum(0)}, "out": {"w": d_w2}}
    g = jax.tree.map(lambda a: a.astype(f32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
