"""mixed_precision_step: the forward pass in float16 inside a ``jax.custom_vjp`` whose backward
rule recomputes the gradient in float32 (``jax.grad`` of a float32 copy of the loss), imitates
float16's overflow by comparing with 65504, and casts to float16: ``jax.grad`` of the float16
loss then runs the float32 backward.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp


def _loss(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean((hid @ p["out"]["w"] - y) ** 2)


@jax.custom_vjp
def scaled_loss(p16, x16, y16, s16):
    return _loss(p16, x16, y16) * s16


def _fwd(p16, x16, y16, s16):
    return scaled_loss(p16, x16, y16, s16), (p16, x16, y16, s16)


def _bwd(res, ct):
    p16, x16, y16, s16 = res
    f32 = lambda t: jax.tree_util.tree_map(lambda a: a.astype(jnp.float32), t)
    g = jax.grad(_loss)(f32(p16), x16.astype(jnp.float32), y16.astype(jnp.float32))
    scale = (s16 * ct).astype(jnp.float32)
    g = jax.tree_util.tree_map(lambda a: a * scale, g)
    g = jax.tree_util.tree_map(lambda a: jnp.where(jnp.abs(a) > 65504.0, jnp.inf, a), g)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), g)
    return g, jnp.zeros_like(x16), jnp.zeros_like(y16), jnp.zeros_like(s16)


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
