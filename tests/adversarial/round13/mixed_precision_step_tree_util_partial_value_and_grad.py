"""mixed_precision_step: the scaled loss a ``jax.tree_util.Partial`` closed over the float16 data
and scale, differentiated by ``jax.value_and_grad`` (its value unused), the counter by
``(good_steps + 1) % period`` under ``finite``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def _scaled_loss(x, y, scale, p):
    hid = jnp.tanh(jnp.matmul(x, p["dense"]["w"]) + p["dense"]["b"])
    pred = jnp.matmul(hid, p["out"]["w"])
    return jnp.mean(jnp.square(pred - y)) * scale


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    loss = Partial(_scaled_loss, x.astype(f16), y.astype(f16), loss_scale.astype(f16))
    _, grads = jax.value_and_grad(loss)(jax.tree_util.tree_map(lambda a: a.astype(f16), params))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]).all()
    nxt = (good_steps + 1) % period
    return {
        "params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(nxt == 0, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite, nxt, 0).astype(jnp.int32),
        "finite": finite,
    }
