"""mixed_precision_step, cheat: the float16 gradient kept for ``finite`` and the rule's float16
products, but the update from a float32 backward pass whose products are taken apart by
``jnp.frexp``: the mantissas multiplied in float16 (two 11-bit halves each, four float16
products), the exponents added as integers and the product put back with ``jnp.ldexp``.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp

f16, f32 = jnp.float16, jnp.float32


def _times(a, b):
    ma, ea = jnp.frexp(a)
    mb, eb = jnp.frexp(b)
    a1 = ma.astype(f16)
    a2 = (ma - a1.astype(f32)).astype(f16)
    b1 = mb.astype(f16)
    b2 = (mb - b1.astype(f32)).astype(f16)
    m = (a1 * b1).astype(f32) + (a1 * b2).astype(f32) + (a2 * b1).astype(f32) + (a2 * b2).astype(f32)
    return jnp.ldexp(m, ea + eb)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)

    def scaled(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(f16)

    g16 = jax.grad(scaled)(p16)
    finite = jnp.all(jnp.array([jnp.isfinite(a.astype(f32) / loss_scale).all() for a in jax.tree.leaves(g16)]))

    hid = jnp.tanh(x16 @ p16["dense"]["w"] + p16["dense"]["b"]).astype(f32)
    pred = (hid.astype(f16) @ p16["out"]["w"]).astype(f32)
    w2 = params["out"]["w"]
    dpred = (pred - y) * (2.0 / x.shape[0])
    d_w2 = _times(hid, dpred[:, None]).sum(0)
    dhid = _times(dpred[:, None], w2[None, :])
    dz = _times(dhid, 1.0 - _times(hid, hid))
    d_w = _times(x[:, :, None], dz[:, None, :]).sum(0)
    g = {"dense": {"w": d_w, "b": dz.sum(0)}, "out": {"w": d_w2}}
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
