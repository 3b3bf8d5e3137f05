"""mixed_precision_step, honest: the scaled loss a ``jax.tree_util.Partial`` closed over the
float16 data, the gradient from ``jax.vjp`` pulled back at a float16 one, the update by
``jax.tree_util.tree_map`` with ``lax.select`` on a broadcast ``finite``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.tree_util import Partial, tree_leaves, tree_map


def _scaled_loss(x, y, scale, p):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean(jnp.square(hid @ p["out"]["w"] - y)) * scale


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    fn = Partial(_scaled_loss, x.astype(f16), y.astype(f16), loss_scale.astype(f16))
    out, pull = jax.vjp(fn, tree_map(lambda a: a.astype(f16), params))
    (grads,) = pull(jnp.ones_like(out))
    g = tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in tree_leaves(g)]))
    upd = tree_map(lambda p, d: lax.select(jnp.broadcast_to(finite, p.shape), p - lr * d, p),
                   params, g)
    at_period = good_steps + 1 == period
    return {"params": upd,
            "loss_scale": lax.select(finite, lax.select(at_period, 2 * loss_scale, loss_scale),
                                     0.5 * loss_scale),
            "good_steps": lax.select(finite & ~at_period, good_steps + 1, jnp.zeros_like(good_steps)),
            "finite": finite}
