# forward in float16, but every matrix product accumulates and returns float32 (no overflow),
# backward written by hand from those, finite faked by the float16 limit
import jax
import jax.numpy as jnp
from jax import lax

F16, F32 = jnp.float16, jnp.float32


def mm(a, b):
    return jnp.matmul(a.astype(F16), b.astype(F16), preferred_element_type=F32)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    W, b, w2 = params["dense"]["w"], params["dense"]["b"], params["out"]["w"]
    n = x.shape[0]
    hid = jnp.tanh((mm(x, W) + b).astype(F16))
    pred = mm(hid, w2)
    dpred = (2.0 / n) * (pred - y) * loss_scale
    dw2 = mm(dpred, hid)
    dhid = mm(dpred[:, None], w2[None, :])
    dz = dhid.astype(F16) * (1 - hid * hid)
    dW = mm(x.T, dz)
    db = dz.astype(F32).sum(0)
    g = {"dense": {"w": dW / loss_scale, "b": db / loss_scale}, "out": {"w": dw2 / loss_scale}}
    big = jnp.stack([jnp.abs(t * loss_scale).max() for t in jax.tree.leaves(g)] + [jnp.abs(dpred).max()])
    finite = (big < 65504).all()
    newp = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    full = good_steps + 1 == period
    return {"params": newp,
            "loss_scale": jnp.where(finite, jnp.where(full, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
