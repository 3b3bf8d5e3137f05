"""mixed_precision_step: ``finite`` read on the float16 gradient before unscaling (dividing by a
scale of at least 1 cannot make a finite value infinite, nor the reverse), the update by
``jax.tree.map(jnp.subtract, ...)``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    c = lambda a: a.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(c(x) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean(jnp.square(hid @ p["out"]["w"] - c(y))) * c(loss_scale)

    g16 = jax.grad(loss)(jax.tree.map(c, params))
    finite = jax.tree.reduce(jnp.logical_and, jax.tree.map(lambda a: jnp.isfinite(a).all(), g16))
    steps = jax.tree.map(lambda a: lr * (a.astype(jnp.float32) / loss_scale), g16)
    moved = jax.tree.map(jnp.subtract, params, steps)
    grow = good_steps + 1 == period
    return {
        "params": jax.tree.map(lambda new, old: jnp.where(finite, new, old), moved, params),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": finite,
    }
