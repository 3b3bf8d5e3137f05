"""mixed_precision_step, cheat: the forward pass in float16 (``x @ W``, ``tanh``, ``hid @ w2``,
as the rule requires), the backward pass written by hand in float32 with every product of two
data values spelled as ``a.at[jnp.arange(n)].multiply(b)`` (the ``scatter_mul`` primitive, an elementwise
product under another name) and rounded to float16 after each step, so that the overflow
behaves as float16's: a float32 gradient of products of two values computed from the arrays.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp

f16, f32 = jnp.float16, jnp.float32


def _r(a):
    return a.astype(f16).astype(f32)


def _times(a, b):
    a, b = jnp.broadcast_arrays(a, b)
    return _r(a.at[jnp.arange(a.shape[0])].multiply(b))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)
    hid = jnp.tanh(x16 @ p16["dense"]["w"] + p16["dense"]["b"])
    pred = hid @ p16["out"]["w"]
    n = x.shape[0]
    scale = loss_scale.astype(f16).astype(f32)
    dpred = _r(_r(_r((pred.astype(f32) - y16.astype(f32)) * 2.0) * scale) / n)
    h32 = hid.astype(f32)
    d_w2 = _r(jnp.sum(_times(h32, dpred[:, None]), axis=0))
    dhid = _times(dpred[:, None], p16["out"]["w"].astype(f32)[None, :])
    dz = _times(dhid, _r(1.0 - _times(h32, h32)))
    d_b = _r(jnp.sum(dz, axis=0))
    d_w = _r(jnp.sum(_times(x16.astype(f32)[:, :, None], dz[:, None, :]), axis=0))
    grads = {"dense": {"w": d_w, "b": d_b}, "out": {"w": d_w2}}
    g = jax.tree.map(lambda a: a / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    new = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = finite & (good_steps + 1 == period)
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
