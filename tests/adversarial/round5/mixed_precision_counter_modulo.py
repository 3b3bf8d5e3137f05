"""mixed_precision_step: the counter as ``(good_steps + 1) % period`` and the scale as one
product with a factor chosen by ``jnp.where`` (2, 1 or 1/2); the loss through ``jax.vjp`` with
the float16 scale as the cotangent, which is the gradient of loss * scale.

Problem: mixed_precision_step
Expected: AC
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    xh, yh = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss_fn(p):
        pred = jnp.tanh(xh @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - yh) ** 2)

    _, pullback = jax.vjp(loss_fn, h)
    (grads,) = pullback(loss_scale.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    wrapped = (good_steps + 1) % period
    factor = jnp.where(finite, jnp.where(wrapped == 0, 2.0, 1.0), 0.5)
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": (loss_scale * factor).astype(jnp.float32),
        "good_steps": jnp.where(finite, wrapped, 0).astype(jnp.int32),
        "finite": finite,
    }
