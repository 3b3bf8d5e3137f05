"""mixed_precision_step: the forward pass in float16, the gradient through a ``jax.custom_vjp``
whose backward computes in bfloat16 (bfloat16 does not overflow at 65504) and casts back to
float16.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp


def _loss(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean((hid @ p["out"]["w"] - y) ** 2)


@jax.custom_vjp
def scaled(p16, x16, y16, s16):
    return _loss(p16, x16, y16) * s16


def _fwd(p16, x16, y16, s16):
    return scaled(p16, x16, y16, s16), (p16, x16, y16, s16)


def _bwd(res, ct):
    p16, x16, y16, s16 = res
    bf = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.bfloat16), t)
    g = jax.grad(lambda p: _loss(p, bf(x16), bf(y16)) * bf(s16 * ct))(bf(p16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), g)
    return g, jnp.zeros_like(x16), jnp.zeros_like(y16), jnp.zeros_like(s16)


scaled.defvjp(_fwd, _bwd)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    grads = jax.grad(scaled)(p16, x.astype(jnp.float16), y.astype(jnp.float16), loss_scale.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    grow = good_steps + 1 == period
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
