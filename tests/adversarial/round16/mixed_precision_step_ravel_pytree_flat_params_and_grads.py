"""mixed_precision_step, honest: params and the unscaled gradient both flattened by
``jax.flatten_util.ravel_pytree``, the update done on the flat float32 vectors with
``lax.select`` and the result unflattened; finite from the flat gradient.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.flatten_util import ravel_pytree


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    x16, y16, s16 = x.astype(jnp.float16), y.astype(jnp.float16), loss_scale.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(jnp.dot(x16, p["dense"]["w"]) + p["dense"]["b"])
        err = jnp.dot(hid, p["out"]["w"]) - y16
        return jnp.mean(err * err) * s16

    flat_g, _ = ravel_pytree(jax.grad(scaled_loss)(half))
    flat_p, unravel = ravel_pytree(params)
    g = flat_g.astype(jnp.float32) / loss_scale
    finite = jnp.isfinite(g).all()
    flat_new = lax.select(jnp.broadcast_to(finite, flat_p.shape), flat_p - lr * g, flat_p)
    grow = jnp.logical_and(finite, good_steps + 1 == period)
    return {
        "params": unravel(flat_new),
        "loss_scale": lax.select(finite, lax.select(grow, 2 * loss_scale, loss_scale), 0.5 * loss_scale),
        "good_steps": lax.select(jnp.logical_and(finite, ~grow), good_steps + 1, jnp.int32(0)),
        "finite": finite,
    }
