"""mixed_precision_step: ``optax.apply_if_finite``-style: the updates ``-lr * g`` replaced by
zeros where the step is not finite and always added (p + 0 is p), the mean over
``y.shape[0]`` in float16, the new scale as ``loss_scale * jnp.where(grow, 2, 1)`` or halved.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda t: t.astype(f16), params)
    x16, y16 = x.astype(f16), y.astype(f16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y16
        return jnp.sum(err * err) / y.shape[0] * loss_scale.astype(f16)

    g = jax.tree_util.tree_map(lambda t: t.astype(jnp.float32) / loss_scale, jax.grad(loss)(p16))
    finite = jax.tree_util.tree_reduce(lambda a, b: a & b,
                                       jax.tree_util.tree_map(lambda t: jnp.all(jnp.isfinite(t)), g))
    updates = jax.tree_util.tree_map(lambda t: jnp.where(finite, -lr * t, 0.0), g)
    new_params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
    grow = good_steps + 1 == period
    scale = jnp.where(finite, loss_scale * jnp.where(grow, 2, 1), loss_scale / 2)
    good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0)
    return {"params": new_params, "loss_scale": scale.astype(jnp.float32),
            "good_steps": good.astype(jnp.int32), "finite": finite}
