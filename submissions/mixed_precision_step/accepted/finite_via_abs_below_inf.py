"""mixed_precision_step, honest: finite written as |g| < inf (NaN compares false) over each
leaf, combined with functools.reduce; lax.convert_element_type for the casts; jit with lr and
period static.

Expected: AC
"""
from functools import partial, reduce

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnames=("lr", "period"))
def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda a: lax.convert_element_type(a, jnp.float16)
    p16 = jax.tree_util.tree_map(h, params)

    def loss(p):
        z = jnp.matmul(h(x), p["dense"]["w"]) + p["dense"]["b"]
        r = jnp.matmul(jnp.tanh(z), p["out"]["w"]) - h(y)
        return jnp.sum(r * r) / r.shape[0] * h(loss_scale)

    g = jax.tree_util.tree_map(lambda a: lax.convert_element_type(a, jnp.float32) / loss_scale,
                               jax.grad(loss)(p16))
    finite = reduce(jnp.logical_and, [jnp.all(jnp.abs(a) < jnp.inf) for a in jax.tree_util.tree_leaves(g)])
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": loss_scale * jnp.where(finite, jnp.where(grow, 2.0, 1.0), 0.5),
            "good_steps": (jnp.where(finite, good_steps + 1, 0) * (good_steps + 1 != period)).astype(jnp.int32),
            "finite": finite}
