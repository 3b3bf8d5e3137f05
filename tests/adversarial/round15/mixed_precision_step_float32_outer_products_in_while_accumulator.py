"""mixed_precision_step, cheat: the forward pass and most of the backward pass in float16, but the
dense weights' gradient x^T dz summed in float32 by a ``lax.while_loop`` over the examples whose
carry is a float32 accumulator, each trip adding the outer product of one row of x and one row
of dz (products of two values computed from the arrays, in float32, inside a loop's body).

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

f16, f32 = jnp.float16, jnp.float32


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(lambda a: a.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)
    hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    n = x.shape[0]
    dpred = (pred - y16) * (2 * loss_scale.astype(f16)) / jnp.asarray(n, f16)
    d_w2 = dpred @ hid
    dz = (dpred[:, None] * p["out"]["w"][None, :]) * (1 - hid * hid)
    d_b = dz.sum(0)
    x32, dz32 = x16.astype(f32), dz.astype(f32)

    def body(c):
        i, acc = c
        return i + 1, acc + jnp.outer(x32[i], dz32[i])

    _, d_w = lax.while_loop(lambda c: c[0] < n, body, (0, jnp.zeros((x.shape[1], hid.shape[1]), f32)))
    d_w = d_w.astype(f16)
    grads = {"dense": {"w": d_w, "b": d_b}, "out": {"w": d_w2}}
    g = jax.tree.map(lambda a: a.astype(f32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
