"""mixed_precision_step: ``finite`` as ``jnp.isfinite`` of every leaf raveled and concatenated,
``.all()``; the gradient with respect to the float16 params by ``jax.grad(..., argnums=0)`` of a
loss taking the params, x and y; the counter by ``jnp.minimum``-free ``lax.select``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def loss_fn(p, x, y, scale):
    hid = jnp.tanh(jnp.dot(x, p["dense"]["w"]) + p["dense"]["b"])
    return jnp.mean((jnp.dot(hid, p["out"]["w"]) - y) ** 2) * scale


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    cast = lambda t: jax.tree.map(lambda a: a.astype(jnp.float16), t)
    grads = jax.grad(loss_fn, argnums=0)(cast(params), *cast((x, y, loss_scale)))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.isfinite(jnp.concatenate([jnp.ravel(a) for a in jax.tree.leaves(g)])).all()
    grow = good_steps + 1 == period
    zero = jnp.zeros_like(good_steps)
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": lax.select(finite, lax.select(grow, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": lax.select(finite, lax.select(grow, zero, good_steps + 1), zero),
        "finite": finite,
    }
