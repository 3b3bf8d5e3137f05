"""mixed_precision_step: optax-like updates (``-lr * g`` per leaf, applied by adding them), kept or
dropped by ``jax.tree.map(functools.partial(jnp.where, finite), stepped, params)``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _apply_updates(params, updates):
    return jax.tree.map(lambda p, u: p + u, params, updates)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    xh, yh = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        pred = jnp.tanh(xh @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean(jnp.square(pred - yh)) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled_loss)(half))
    finite = jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]).all()
    stepped = _apply_updates(params, jax.tree.map(lambda d: -lr * d, g))
    new_params = jax.tree.map(functools.partial(jnp.where, finite), stepped, params)
    grow = good_steps + 1 == period
    return {"params": new_params,
            "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
            "finite": finite}
