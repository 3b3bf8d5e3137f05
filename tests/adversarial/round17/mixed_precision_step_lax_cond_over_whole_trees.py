"""mixed_precision_step: ``lax.cond(finite, apply, skip, operands)`` where both branches return
the whole state (params tree, scale, counter).

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale,
                               jax.grad(scaled_loss)(half))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))

    def apply(state):
        p, grads, scale, good = state
        new_p = jax.tree_util.tree_map(lambda a, d: a - lr * d, p, grads)
        grow = good + 1 == period
        return new_p, jnp.where(grow, scale * 2, scale), jnp.where(grow, 0, good + 1)

    def skip(state):
        p, _, scale, _ = state
        return p, scale / 2, jnp.zeros((), jnp.int32)

    new_params, new_scale, new_good = lax.cond(finite, apply, skip,
                                               (params, g, loss_scale, good_steps))
    return {"params": new_params, "loss_scale": new_scale,
            "good_steps": new_good.astype(jnp.int32), "finite": finite}
