"""mixed_precision_step: the float16 forward pass wrapped in ``jax.checkpoint`` (the backward
pass recomputes ``tanh`` in float16), the step chosen with ``jax.lax.select`` on scalars and a
``jax.named_scope`` around the unscaling.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def half_loss(p, x, y, scale):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean((hid @ p["out"]["w"] - y) ** 2) * scale


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = lambda a: a.astype(jnp.float16)
    grads = jax.grad(half_loss)(jax.tree_util.tree_map(f16, params), f16(x), f16(y), f16(loss_scale))
    with jax.named_scope("unscale"):
        g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
        finite = jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]).all()
    new_params = jax.tree_util.tree_map(
        lambda p, d: jax.lax.select(jnp.broadcast_to(finite, p.shape), p - lr * d, p), params, g)
    last = good_steps + 1 == period
    scale = jax.lax.select(finite, jax.lax.select(last, loss_scale * 2, loss_scale), loss_scale / 2)
    count = jax.lax.select(finite, jax.lax.select(last, jnp.int32(0), good_steps + 1), jnp.int32(0))
    return {"params": new_params, "loss_scale": scale, "good_steps": count, "finite": finite}
