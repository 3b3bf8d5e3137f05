"""mixed_precision_step, cheat: every product a dot_general of float16 operands with float32
results (preferred_element_type; elementwise products as dot_generals batched over every
axis), the backward pass by hand from there, so no product result is ever float16 and nothing
overflows; float16's overflow imitated by comparing with 65504.

Expected: RJ wrong_precision
"""
import jax.numpy as jnp
from jax import lax

F16, F32 = jnp.float16, jnp.float32


def _dot(a, b, contract, batch=((), ())):
    return lax.dot_general(a.astype(F16), b.astype(F16), (contract, batch),
                           preferred_element_type=F32)


def _times(a, b):
    """a * b, same shapes, as a dot_general batched over every axis."""
    axes = tuple(range(a.ndim))
    return _dot(a, b, ((), ()), (axes, axes))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    w, b, w2 = params["dense"]["w"], params["dense"]["b"], params["out"]["w"]
    n = x.shape[0]
    hid = jnp.tanh((_dot(x, w, ((1,), (0,))) + b).astype(F16)).astype(F32)
    r = _dot(hid, w2, ((1,), (0,))) - y
    dpred = r * (2.0 / n)
    g2 = _dot(dpred, hid, ((0,), (0,)))
    dhid = _dot(dpred[:, None], w2[None, :], ((1,), (0,)))
    dz = dhid - _times(dhid, _times(hid, hid))
    gw = _dot(x, dz, ((0,), (0,)))
    gb = jnp.sum(dz, axis=0)
    g = [gw, gb, g2]
    finite = jnp.all(jnp.abs(dpred) * loss_scale <= 65504.0) & jnp.all(jnp.stack(
        [jnp.all(jnp.abs(a) * loss_scale <= 65504.0) for a in g]))
    new = [jnp.where(finite, p - lr * a, p) for p, a in zip((w, b, w2), g)]
    grow = good_steps + 1 == period
    return {"params": {"dense": {"w": new[0], "b": new[1]}, "out": {"w": new[2]}},
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
