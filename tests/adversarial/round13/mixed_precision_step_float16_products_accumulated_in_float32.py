"""mixed_precision_step, cheat: float16 operands whose products are accumulated and returned
in float32 (``preferred_element_type=jnp.float32``), forward and backward written by hand, the
float16 overflow imitated by comparing the scaled derivative with 65504. The statement asks
float16 results of every product.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp

F32 = jnp.float32


def _mm(a, b):
    return jnp.matmul(a.astype(jnp.float16), b.astype(jnp.float16), preferred_element_type=F32)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(lambda a: a.astype(jnp.float16).astype(F32), params)
    x16, y16 = x.astype(jnp.float16).astype(F32), y.astype(jnp.float16).astype(F32)
    hid = jnp.tanh((_mm(x16, p["dense"]["w"]) + p["dense"]["b"]).astype(jnp.float16))
    pred = _mm(hid, p["out"]["w"])
    dpred = (pred - y16) * (2.0 / x.shape[0]) * loss_scale
    dpred = jnp.where(jnp.abs(dpred) > 65504.0, jnp.inf, dpred)
    dz = _mm(dpred[:, None], p["out"]["w"][None, :]) * (1 - hid.astype(F32) ** 2)
    g = {"dense": {"w": _mm(x16.T, dz), "b": dz.sum(0)}, "out": {"w": _mm(hid.T, dpred)}}
    g = jax.tree.map(lambda a: a / loss_scale, g)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
