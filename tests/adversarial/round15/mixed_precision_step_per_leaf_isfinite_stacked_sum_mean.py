"""mixed_precision_step, honest: the loss's mean by ``jnp.sum(...) / n`` in float16 (n a float16
scalar from ``x.shape[0]``), ``finite`` from a tree of per-leaf ``jnp.isfinite(...).all()``
made by ``jax.tree.map``, its leaves stacked with ``jnp.stack``, the skipped step by
``jax.tree.map`` of ``lax.select`` with ``finite`` broadcast.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    n = jnp.asarray(x.shape[0], f16)

    def loss(p, xb, yb):
        hid = jnp.tanh(xb @ p["dense"]["w"] + p["dense"]["b"])
        r = hid @ p["out"]["w"] - yb
        return jnp.sum(r * r) / n * loss_scale.astype(f16)

    grads = jax.grad(loss)(jax.tree.map(lambda a: a.astype(f16), params), x.astype(f16), y.astype(f16))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.stack(jax.tree.leaves(jax.tree.map(lambda a: jnp.isfinite(a).all(), g))).all()
    new = jax.tree.map(lambda p, d: lax.select(jnp.full(p.shape, finite), p - lr * d, p), params, g)
    grow = finite & (good_steps + 1 == period)
    return {"params": new,
            "loss_scale": jnp.where(grow, loss_scale * 2, jnp.where(finite, loss_scale, loss_scale * 0.5)),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
