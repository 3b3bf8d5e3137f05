"""mixed_precision_step: ``finite`` as the negation of ``jnp.any`` over the leaves of
``jnp.isnan(g) | jnp.isinf(g)`` (the same flag as ``jnp.isfinite``), the step by ``jnp.where``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = jnp.float16

    def scaled(p):
        hid = jnp.tanh(x.astype(h) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y.astype(h)) ** 2) * loss_scale.astype(h)

    grads = jax.grad(scaled)(jax.tree.map(lambda a: a.astype(h), params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    bad = jnp.any(jnp.stack([jnp.any(jnp.isnan(a) | jnp.isinf(a)) for a in jax.tree.leaves(g)]))
    finite = ~bad
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(bad, p, p - lr * d), params, g),
        "loss_scale": jnp.where(bad, loss_scale / 2, jnp.where(grow, loss_scale * 2, loss_scale)),
        "good_steps": jnp.where(bad | grow, 0, good_steps + 1).astype(jnp.int32),
        "finite": finite,
    }
