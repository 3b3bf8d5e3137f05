"""mixed_precision_step: ``finite`` as every leaf's largest magnitude (``jnp.max(jnp.abs(g))``,
in float32) below infinity, the gradient unscaled by a product with ``1 / loss_scale`` and the
update applied as ``p + (-lr) * g`` chosen by ``jnp.where``: ``abs`` and ``max`` of float32
values that only a test of finiteness reads.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16, s16 = x.astype(jnp.float16), y.astype(jnp.float16), loss_scale.astype(jnp.float16)

    def scaled(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean(jnp.square(pred - y16)) * s16

    inv = 1.0 / loss_scale
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) * inv, jax.grad(scaled)(half))
    peaks = [jnp.max(jnp.abs(a)) for a in jax.tree_util.tree_leaves(g)]
    finite = jnp.all(jnp.array([m < jnp.inf for m in peaks]))
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p + (-lr) * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale * 0.5),
            "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
            "finite": finite}
