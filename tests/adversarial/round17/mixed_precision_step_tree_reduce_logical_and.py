"""mixed_precision_step: ``finite`` as ``jax.tree.reduce(jnp.logical_and, ...)`` over the
per-leaf ``jnp.all(jnp.isfinite(leaf))`` flags, with ``jax.tree.map`` throughout.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    xh, yh = x.astype(jnp.float16), y.astype(jnp.float16)
    s16 = loss_scale.astype(jnp.float16)

    def loss_fn(p):
        h = jnp.tanh(jnp.dot(xh, p["dense"]["w"]) + p["dense"]["b"])
        return jnp.mean(jnp.square(jnp.dot(h, p["out"]["w"]) - yh)) * s16

    grads = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss_fn)(p16))
    flags = jax.tree.map(lambda a: jnp.all(jnp.isfinite(a)), grads)
    finite = jax.tree.reduce(jnp.logical_and, flags, jnp.array(True))
    new_params = jax.tree.map(lambda p, g: jnp.where(finite, p - lr * g, p), params, grads)
    grow = good_steps + 1 == period
    return {
        "params": new_params,
        "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": finite,
    }
