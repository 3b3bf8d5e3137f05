"""mixed_precision_step, honest: ``jax.tree.map`` over ``(params, grads)`` with ``jnp.where`` per
leaf, ``finite`` as ``jax.tree.reduce`` of ``jnp.isfinite(...).all()`` with ``jnp.logical_and``,
the counter by ``jnp.where(grow, 0, good_steps + 1)`` and the halving as ``* 0.5``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(p, x, y, scale):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    return jnp.mean((pred - y) ** 2) * scale


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    grads = jax.grad(_loss)(p16, x.astype(jnp.float16), y.astype(jnp.float16),
                            loss_scale.astype(jnp.float16))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jax.tree.reduce(jnp.logical_and,
                             jax.tree.map(lambda a: jnp.isfinite(a).all(), g), jnp.bool_(True))
    new_params = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    scale = jnp.where(finite, jnp.where(grow, loss_scale * 2.0, loss_scale), loss_scale * 0.5)
    steps = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0)
    return {"params": new_params, "loss_scale": scale.astype(jnp.float32),
            "good_steps": steps.astype(jnp.int32), "finite": finite}
