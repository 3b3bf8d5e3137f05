"""mixed_precision_step: ``finite`` by ``jnp.isfinite`` of the unscaled gradient raveled with
``jax.flatten_util.ravel_pytree``, the update applied to the raveled params and unraveled; the
loss's float16 mean as ``jnp.sum(...) / n`` with ``n`` from the shape.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
    scale16 = loss_scale.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y16
        return jnp.sum(err * err) / x.shape[0] * scale16

    grads = jax.grad(loss)(jax.tree.map(lambda a: a.astype(jnp.float16), params))
    flat_g, _ = ravel_pytree(jax.tree.map(lambda a: a.astype(jnp.float32), grads))
    flat_g = flat_g / loss_scale
    flat_p, unravel = ravel_pytree(params)
    finite = jnp.all(jnp.isfinite(flat_g))
    new_params = unravel(jnp.where(finite, flat_p - lr * flat_g, flat_p))
    grow = good_steps + 1 == period
    return {"params": new_params,
            "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale),
                                    loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
