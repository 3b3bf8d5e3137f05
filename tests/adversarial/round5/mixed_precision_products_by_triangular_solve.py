"""mixed_precision_step: the forward pass honestly in float16 (its products and tanh satisfy the
rules on dtypes), the backward pass by hand in float32 with every product of two values
computed from the data taken as a solve, a * b = triangular_solve(1 / a, b), which no rule
names; the float16 overflow imitated by comparing every intermediate with 65504.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp
from jax import lax

BIG = 65504.0


def mul(a, b):
    a, b = jnp.broadcast_arrays(a, b)
    zero = a == 0
    inv = 1.0 / jnp.where(zero, 1.0, a)
    out = lax.linalg.triangular_solve(inv.reshape(-1, 1, 1), b.reshape(-1, 1, 1), left_side=True, lower=True)
    return jnp.where(zero, 0.0, out.reshape(a.shape))


def f16(a):
    a = jnp.where(jnp.abs(a) > BIG, jnp.sign(a) * jnp.inf, a)
    return a.astype(jnp.float16).astype(jnp.float32)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    W16, b16, w216 = (params["dense"]["w"].astype(jnp.float16), params["dense"]["b"].astype(jnp.float16),
                      params["out"]["w"].astype(jnp.float16))
    hid16 = jnp.tanh(x.astype(jnp.float16) @ W16 + b16)
    pred16 = hid16 @ w216
    hid, err = hid16.astype(jnp.float32), (pred16 - y.astype(jnp.float16)).astype(jnp.float32)
    n = x.shape[0]
    ct = f16(jnp.full(err.shape, loss_scale / n))
    d_pred = f16(mul(ct, f16(2.0 * err)))
    g_w2 = f16(mul(d_pred[:, None], hid).sum(0))
    d_hid = f16(mul(d_pred[:, None], params["out"]["w"].astype(jnp.float16).astype(jnp.float32)[None, :]))
    d_pre = f16(mul(d_hid, f16(1.0 - f16(mul(hid, hid)))))
    g_W = f16(mul(x.astype(jnp.float16).astype(jnp.float32)[:, :, None], d_pre[:, None, :]).sum(0))
    g_b = f16(d_pre.sum(0))
    g = {"dense": {"w": g_W / loss_scale, "b": g_b / loss_scale}, "out": {"w": g_w2 / loss_scale}}
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
