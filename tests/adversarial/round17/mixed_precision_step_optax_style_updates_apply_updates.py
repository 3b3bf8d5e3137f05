"""mixed_precision_step: optax-style: ``updates = tree_map(lambda g: -lr * g, grads)``, zeroed
by ``where`` when not finite, then ``apply_updates`` as ``p + u`` per leaf.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _apply_updates(params, updates):
    return jax.tree_util.tree_map(lambda p, u: p + u, params, updates)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    grads = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale,
                                   jax.grad(scaled_loss)(half))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(grads)]))
    updates = jax.tree_util.tree_map(lambda g: -lr * g, grads)
    updates = jax.tree_util.tree_map(lambda u: jnp.where(finite, u, jnp.zeros_like(u)), updates)
    grow = good_steps + 1 == period
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    new_good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32)
    return {"params": _apply_updates(params, updates), "loss_scale": new_scale,
            "good_steps": new_good, "finite": finite}
