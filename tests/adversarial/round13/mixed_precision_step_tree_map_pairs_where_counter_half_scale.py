"""mixed_precision_step: ``jax.tree.map`` over ``(params, grads)`` with ``jnp.where`` per leaf,
the counter by ``jnp.where(grow, 0, good_steps + 1)`` under ``finite``, the scale halved by
``* 0.5``.

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
    half = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    grads = jax.grad(_loss)(half, x.astype(jnp.float16), y.astype(jnp.float16),
                            loss_scale.astype(jnp.float16))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    new_params = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    counter = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0)
    scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale * 0.5)
    return {"params": new_params, "loss_scale": scale,
            "good_steps": counter.astype(jnp.int32), "finite": finite}
