"""mixed_precision_step, honest: the update by ``jax.tree_util.tree_map_with_path`` over
``(params, grads)``, each leaf's path turned into a name by ``jax.tree_util.keystr`` (kept in
a dict of the leaves updated, unused by the values), ``jnp.where`` on ``finite``; finite is
``jnp.all`` of ``jnp.isfinite`` of the concatenated raveled leaves.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

f16 = jnp.float16


def _loss(p, x, y, scale):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    return jnp.mean((pred - y) ** 2) * scale


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype(f16), params)
    g16 = jax.grad(_loss)(p16, x.astype(f16), y.astype(f16), loss_scale.astype(f16))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.isfinite(jnp.concatenate([jnp.ravel(a) for a in jax.tree.leaves(g)])))
    seen = {}

    def update(path, p, d):
        seen[jax.tree_util.keystr(path)] = p.shape
        return jnp.where(finite, p - lr * d, p)

    new = jax.tree_util.tree_map_with_path(update, params, g)
    grow = finite & (good_steps + 1 == period)
    scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    steps = jnp.where(finite & ~grow, good_steps + 1, jnp.zeros_like(good_steps))
    return {"params": new, "loss_scale": scale, "good_steps": steps, "finite": finite}
