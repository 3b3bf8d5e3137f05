# float16 forward (for the rule); the backward pass by hand in float32, each product's
# second operand rebuilt from its bits through bools; finite by comparing with float16's limit
import jax.numpy as jnp
from jax import lax

F16, F32 = jnp.float16, jnp.float32
LIMIT = 65520.0  # values from here up round to inf in float16
BITS = jnp.arange(32, dtype=jnp.int32)


def _same(a):
    i = lax.bitcast_convert_type(a, jnp.int32)
    on = ((i[..., None] >> BITS) & 1) == 1
    return lax.bitcast_convert_type(jnp.sum(jnp.where(on, jnp.left_shift(1, BITS), 0), axis=-1), F32)


def _ok(*values):
    return jnp.all(jnp.stack([jnp.all(jnp.abs(v) < LIMIT) for v in values]))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    W, b, w2 = params["dense"]["w"], params["dense"]["b"], params["out"]["w"]
    hid16 = jnp.tanh(x.astype(F16) @ W.astype(F16) + b.astype(F16))
    pred = (hid16 @ w2.astype(F16)).astype(F32)
    hid = hid16.astype(F32)
    s = loss_scale.astype(F16).astype(F32)
    n = x.shape[0]
    err = pred - y.astype(F16).astype(F32)
    derr = err * (2.0 * s / n)
    dw2 = jnp.sum(derr[:, None] * _same(hid), axis=0)
    dhid = derr[:, None] * _same(w2)[None, :]
    dz = dhid * _same(1.0 - hid * _same(hid))
    dW = jnp.sum(_same(x)[:, :, None] * dz[:, None, :], axis=0)
    db = jnp.sum(dz, axis=0)
    finite = _ok(derr, dw2, dhid, dz, dW, db)
    g = {"dense": {"w": dW / loss_scale, "b": db / loss_scale}, "out": {"w": dw2 / loss_scale}}
    new = {k: {kk: jnp.where(finite, params[k][kk] - lr * g[k][kk], params[k][kk]) for kk in params[k]}
           for k in params}
    full = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(full, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
