"""mixed_precision_step: ``lax.cond(finite, apply, skip, state)`` whose two branches each return
the whole result dict (params, scale, counter, flag), the counter's growth by a nested
``lax.cond``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _forward(p, x):
    return jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        return jnp.mean(jnp.square(_forward(p, x16) - y16)) * loss_scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled_loss)(p16))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))

    def apply(state):
        p, grads, scale, good = state
        new_p = jax.tree_util.tree_map(lambda a, d: a - lr * d, p, grads)
        scale, good = lax.cond(good + 1 == period,
                               lambda: (scale * 2.0, jnp.int32(0)),
                               lambda: (scale, good + 1))
        return {"params": new_p, "loss_scale": scale, "good_steps": good, "finite": jnp.bool_(True)}

    def skip(state):
        p, _, scale, _ = state
        return {"params": p, "loss_scale": scale / 2.0, "good_steps": jnp.int32(0),
                "finite": jnp.bool_(False)}

    return lax.cond(finite, apply, skip, (params, g, loss_scale, good_steps))
