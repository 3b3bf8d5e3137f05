"""mixed_precision_step, honest: the float16 gradient unscaled in float32, its non-finite
entries replaced by ``jnp.nan_to_num`` for the update that a ``jnp.where(finite, ...)`` keeps
anyway, and the per-leaf finiteness folded by a ``lax.fori_loop`` over a stacked vector of
flags.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        d = hid @ p["out"]["w"] - y16
        return jnp.mean(d * d) * loss_scale.astype(jnp.float16)

    g16 = jax.grad(scaled_loss)(p16)
    flags = jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g16)])
    finite = jax.lax.fori_loop(0, flags.shape[0], lambda i, acc: acc & flags[i], jnp.bool_(True))
    g = jax.tree_util.tree_map(lambda a: jnp.nan_to_num(a.astype(jnp.float32)) / loss_scale, g16)
    full = good_steps + 1 >= period
    return {"params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.where(finite, jnp.where(full, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
