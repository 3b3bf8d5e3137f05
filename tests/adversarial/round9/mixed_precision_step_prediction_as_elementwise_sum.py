"""mixed_precision_step: pred = hid w_2 written as ``jnp.sum(hid * w2, axis=-1)`` (an elementwise
product and a sum, all float16) instead of a matrix product, so the program has the matrix
products x W and its backward one only; the rest by ``jax.value_and_grad`` and ``lax.cond`` on
``finite``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: jnp.asarray(a, jnp.float16), params)
    x16 = x.astype(jnp.float16)
    y16 = y.astype(jnp.float16)

    def loss_fn(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        pred = jnp.sum(hid * p["out"]["w"], axis=-1)
        return jnp.mean(jnp.square(pred - y16)) * loss_scale.astype(jnp.float16)

    _, grads = jax.value_and_grad(loss_fn)(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.array(True)
    for leaf in jax.tree_util.tree_leaves(g):
        finite = finite & jnp.all(jnp.isfinite(leaf))

    def good(_):
        nxt = good_steps + 1
        full = nxt >= period
        return (jax.tree_util.tree_map(lambda p, d: p - lr * d, params, g),
                jnp.where(full, loss_scale * 2.0, loss_scale),
                jnp.where(full, jnp.int32(0), nxt))

    def bad(_):
        return params, loss_scale / 2.0, jnp.int32(0)

    new_params, scale, count = lax.cond(finite, good, bad, None)
    return {"params": new_params, "loss_scale": scale, "good_steps": count, "finite": finite}
