"""mixed_precision_step: the float16 copy by ``jax.tree_util.tree_map_with_path`` (the path
unused), the update of each leaf by ``lax.select(finite, new, old)`` with the scalar flag, the
scale and counter by ``lax.select`` too.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _loss(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean((hid @ p["out"]["w"] - y) ** 2)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map_with_path(lambda path, a: a.astype(jnp.float16), params)
    scale16 = loss_scale.astype(jnp.float16)
    g16 = jax.grad(lambda p: _loss(p, x.astype(jnp.float16), y.astype(jnp.float16)) * scale16)(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    new = jax.tree.map(lambda p, d: lax.select(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    scale = lax.select(finite, lax.select(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    steps = lax.select(finite & ~grow, good_steps + 1, jnp.zeros_like(good_steps))
    return {"params": new, "loss_scale": scale, "good_steps": steps, "finite": finite}
