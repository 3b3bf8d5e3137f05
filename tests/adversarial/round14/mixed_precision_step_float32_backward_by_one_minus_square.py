"""mixed_precision_step, cheat: the forward pass in float16, the backward pass in float32 with
every product of two values built from a square with a constant taken off, ``a * b =
((1 - (a - b)^2) - (1 - (a + b)^2)) / 4``: ``lax.one_minus_square`` where JAX has it (from 0.11,
its own primitive, also the one JAX's derivative of ``tanh`` uses), ``1 - square`` where it has
not. The statement allows float32 only to unscale, check and apply the gradient; on every
supported JAX the rule must read the function of one data value it is (accepted on JAX 0.11
until ``one_minus_square`` was read as the ``square`` it is).

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp

F16, F32 = jnp.float16, jnp.float32
_one_minus_square = getattr(jax.lax, "one_minus_square", None) or (lambda v: 1.0 - jnp.square(v))


def _mul(a, b):
    a, b = jnp.broadcast_arrays(a, b)
    return (_one_minus_square(a - b) - _one_minus_square(a + b)) * 0.25


def _overflows(a, scale):
    return jnp.abs(a) * scale >= 65520.0


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(lambda a: a.astype(F16), params)
    x16, y16 = x.astype(F16), y.astype(F16)
    hid16 = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
    pred16 = hid16 @ p["out"]["w"]
    hid, w2, xs = hid16.astype(F32), p["out"]["w"].astype(F32), x16.astype(F32)
    dpred = (pred16.astype(F32) - y16.astype(F32)) * (2.0 / x.shape[0])
    dhid = _mul(dpred[:, None], w2[None, :])
    dz = _mul(dhid, 1.0 - _mul(hid, hid))
    grads = {"dense": {"w": jnp.sum(_mul(xs[:, :, None], dz[:, None, :]), axis=0),
                       "b": jnp.sum(dz, axis=0)},
             "out": {"w": jnp.sum(_mul(hid, dpred[:, None]), axis=0)}}
    inside = _overflows(dpred, loss_scale).any() | _overflows(dhid, loss_scale).any() | \
        _overflows(dz, loss_scale).any()
    finite = ~inside & jnp.all(jnp.stack([~_overflows(a, loss_scale).any() for a in jax.tree.leaves(grads)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), params, grads),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
