"""mixed_precision_step: the float16 gradient of the scaled loss summed over the examples in a
``lax.fori_loop`` (one example a trip, its row taken by ``dynamic_slice`` at the counter), each
example's loss divided by n: a loop whose counter is integer work beside float16 values, its
results the float16 gradient the update reads after the cast and the unscale.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)
    n = x.shape[0]
    s16 = loss_scale.astype(jnp.float16)

    def one(p, xi, yi):
        hid = jnp.tanh(xi @ p["dense"]["w"] + p["dense"]["b"])
        return (hid @ p["out"]["w"] - yi) ** 2 / n * s16

    def body(i, acc):
        xi = lax.dynamic_index_in_dim(x16, i, keepdims=False)
        yi = lax.dynamic_index_in_dim(y16, i, keepdims=False)
        gi = jax.grad(one)(p16, xi, yi)
        return jax.tree_util.tree_map(jnp.add, acc, gi)

    zero = jax.tree_util.tree_map(jnp.zeros_like, p16)
    grads = lax.fori_loop(0, n, body, zero)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
