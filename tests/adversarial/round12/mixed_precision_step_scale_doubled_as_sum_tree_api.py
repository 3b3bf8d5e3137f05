"""mixed_precision_step: the gradient unscaled in float32, the step applied as the statement
says, the scale's new value computed as ``loss_scale + loss_scale`` (a sum, not a product) and
``loss_scale * 0.5``; ``jax.tree.map`` and ``jax.tree.leaves`` (the newer tree API).

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _mse(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean(jnp.square(hid @ p["out"]["w"] - y))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: jnp.asarray(a, dtype=jnp.float16), params)
    scale = jnp.asarray(loss_scale, jnp.float16)
    g16 = jax.grad(lambda p: _mse(p, jnp.asarray(x, jnp.float16), jnp.asarray(y, jnp.float16)) * scale)(p16)
    g = jax.tree.map(lambda a: jnp.asarray(a, jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    grow = jnp.equal(good_steps + 1, period)
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale + loss_scale, loss_scale), loss_scale * 0.5)
    new_good = jnp.where(jnp.logical_and(finite, jnp.logical_not(grow)), good_steps + 1, jnp.zeros_like(good_steps))
    new_params = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good, "finite": finite}
