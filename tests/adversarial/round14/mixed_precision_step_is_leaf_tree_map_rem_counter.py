"""mixed_precision_step: the float16 copy by ``jax.tree.map`` with an ``is_leaf`` that stops at
arrays, the counter as ``lax.rem(good_steps + 1, period)`` kept only when finite, the scale
doubled where that remainder is 0.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    is_array = lambda a: isinstance(a, jax.Array)
    p16 = jax.tree.map(lambda a: a.astype(jnp.float16), params, is_leaf=is_array)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(jnp.matmul(x16, p["dense"]["w"]) + p["dense"]["b"])
        return jnp.mean((jnp.matmul(hid, p["out"]["w"]) - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(p16))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree.leaves(g)]))
    nxt = lax.rem(good_steps + 1, jnp.int32(period))
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(nxt == 0, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(finite, nxt, 0).astype(jnp.int32),
        "finite": finite,
    }
