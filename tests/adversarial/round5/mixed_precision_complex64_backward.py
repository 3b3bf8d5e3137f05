"""mixed_precision_step: the forward pass honestly in float16, but the gradient from a
``jax.custom_vjp`` whose backward rule is written by hand in complex64 (a wide type the
statement does not list, no bfloat16 or float32 operation in sight), imitating float16 by
turning every intermediate beyond 65504 into inf and casting the result to float16.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp

C = jnp.complex64


def _overflow(a):
    return jnp.where(jnp.abs(a) > 65504.0, jnp.inf, a)


def _forward(p, x16, y16, s16):
    hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    return jnp.mean((pred - y16) ** 2) * s16, hid, pred


@jax.custom_vjp
def scaled_loss(p, x16, y16, s16):
    return _forward(p, x16, y16, s16)[0]


def _fwd(p, x16, y16, s16):
    loss, hid, pred = _forward(p, x16, y16, s16)
    return loss, (p, x16, y16, s16, hid, pred)


def _bwd(res, ct):
    p, x16, y16, s16, hid, pred = res
    n = x16.shape[0]
    err = (pred - y16).astype(C)
    d_pred = _overflow((s16 * ct).astype(C) / n * (2 * err)).real.astype(C)
    hid_c = hid.astype(C)
    g_w2 = _overflow(d_pred @ hid_c)
    d_pre = _overflow(jnp.outer(d_pred, p["out"]["w"].astype(C)) * (1 - hid_c * hid_c))
    g_W = _overflow(x16.astype(C).T @ d_pre)
    g_b = _overflow(d_pre.sum(0))
    half = lambda a: jnp.where(jnp.isinf(a.real), a.real, a.real).astype(jnp.float16)
    grads = {"dense": {"w": half(g_W), "b": half(g_b)}, "out": {"w": half(g_w2)}}
    return grads, jnp.zeros_like(x16), jnp.zeros_like(y16), jnp.zeros_like(s16)


scaled_loss.defvjp(_fwd, _bwd)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    grads = jax.grad(scaled_loss)(p16, x.astype(jnp.float16), y.astype(jnp.float16),
                                  loss_scale.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
