"""mixed_precision_step: the mean as a sum over ``err.size``, the unscale as a product with
``jnp.reciprocal(loss_scale)``, ``finite`` by ``jnp.logical_and.reduce`` over the leaves' checks,
the counter computed as ``jnp.where(finite, (good_steps + 1) % period, 0)`` and the scale
doubled where that wrapped to 0.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda a: jnp.asarray(a, h16), params)

    def scaled(p):
        hid = jnp.tanh(jnp.asarray(x, h16) @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - jnp.asarray(y, h16)
        return (err * err).sum() / err.size * jnp.asarray(loss_scale, h16)

    inv = jnp.reciprocal(loss_scale)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) * inv, jax.grad(scaled)(p16))
    finite = jnp.logical_and.reduce(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    counter = jnp.where(finite, (good_steps + 1) % period, 0).astype(jnp.int32)
    scale = jnp.where(finite, jnp.where(counter == 0, loss_scale * 2, loss_scale), loss_scale / 2)
    new_params = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    return {"params": new_params, "loss_scale": scale, "good_steps": counter, "finite": finite}
