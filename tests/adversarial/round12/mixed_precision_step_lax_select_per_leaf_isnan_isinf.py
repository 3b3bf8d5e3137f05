"""mixed_precision_step: the update kept or dropped per leaf by ``jax.lax.select`` on the
scalar ``finite``, ``finite`` as no NaN and no infinity (``jnp.isnan | jnp.isinf``), the
scale by ``lax.select`` too and the counter by ``jnp.where`` with ``jnp.int32`` literals.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def loss_fn(p, x, y):
    h = jnp.tanh(jnp.dot(x, p["dense"]["w"]) + p["dense"]["b"])
    pred = jnp.dot(h, p["out"]["w"])
    return jnp.mean(jnp.square(pred - y))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
    s16 = loss_scale.astype(jnp.float16)
    g16 = jax.grad(lambda p: loss_fn(p, x16, y16) * s16)(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    bad = jnp.stack([jnp.any(jnp.isnan(a) | jnp.isinf(a)) for a in jax.tree_util.tree_leaves(g)])
    finite = ~jnp.any(bad)
    new_params = jax.tree_util.tree_map(lambda p, d: lax.select(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 >= period
    new_scale = lax.select(finite, lax.select(grow, loss_scale * 2.0, loss_scale), loss_scale * 0.5)
    new_good = jnp.where(finite, jnp.where(grow, jnp.int32(0), good_steps + 1), jnp.int32(0))
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good, "finite": finite}
