"""mixed_precision_step: every input rounded through float16 and straight back
(``astype(float16).astype(float32)``), so the values are float16's, then the forward and
``jax.grad`` in float32; the overflow imitated by casting the scaled float32 gradient to float16
(where 65504 and above become infinite). Wrong where only the backward pass overflows, and
refused anyway: the matrix products and tanh are float32.

Problem: mixed_precision_step
Expected: RJ wrong_precision
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    rt = lambda a: a.astype(jnp.float16).astype(jnp.float32)
    p = jax.tree_util.tree_map(rt, params)
    x, y = rt(x), rt(y)

    def loss(p):
        pred = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean((pred - y) ** 2)

    g = jax.grad(loss)(p)
    g = jax.tree_util.tree_map(lambda a: (a * loss_scale).astype(jnp.float16).astype(jnp.float32) / loss_scale, g)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a - lr * b, a), params, g)
    wrap = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(wrap, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~wrap, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
