"""mixed_precision_step: the float32 gradient flattened by ``ravel_pytree`` and tested by one
``jnp.all(jnp.isfinite(flat))``; the update applied to the flat params and unraveled.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        pred = hid @ p["out"]["w"]
        return jnp.mean((pred - y16) ** 2) * loss_scale.astype(jnp.float16)

    g16 = jax.grad(scaled_loss)(half)
    flat_g, _ = ravel_pytree(jax.tree_util.tree_map(lambda a: a.astype(jnp.float32), g16))
    flat_g = flat_g / loss_scale
    flat_p, unravel = ravel_pytree(params)
    finite = jnp.all(jnp.isfinite(flat_g))
    new_params = unravel(jnp.where(finite, flat_p - lr * flat_g, flat_p))
    grow = good_steps + 1 >= period
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale * 2.0, loss_scale), loss_scale * 0.5)
    new_good = jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good,
            "finite": finite}
