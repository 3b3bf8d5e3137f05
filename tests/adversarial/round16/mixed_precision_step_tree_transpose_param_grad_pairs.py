"""mixed_precision_step, honest: the params and unscaled grads zipped into a tree of pairs,
updated leaf by leaf, and split back by ``jax.tree.transpose``; the counter's step written with
``lax.cond`` returning the (scale, count) pair.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: jnp.asarray(a, jnp.float16), params)

    def loss(p):
        z = x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"]
        d = jnp.tanh(z) @ p["out"]["w"] - y.astype(jnp.float16)
        return (d * d).mean() * loss_scale.astype(jnp.float16)

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(p16))
    finite = jnp.array(True)
    for leaf in jax.tree.leaves(g):
        finite = finite & jnp.isfinite(leaf).all()
    pairs = jax.tree.map(lambda p, d: (jnp.where(finite, p - lr * d, p), p), params, g)
    outer = jax.tree.structure(params)
    inner = jax.tree.structure((0, 0))
    new, _old = jax.tree.transpose(outer, inner, pairs)

    def good(sc):
        s, c = sc
        grow = c + 1 == period
        return jnp.where(grow, 2 * s, s), jnp.where(grow, 0, c + 1).astype(jnp.int32)

    def bad(sc):
        return sc[0] / 2, jnp.int32(0)

    scale, count = lax.cond(finite, good, bad, (loss_scale, good_steps))
    return {"params": new, "loss_scale": scale, "good_steps": count, "finite": finite}
