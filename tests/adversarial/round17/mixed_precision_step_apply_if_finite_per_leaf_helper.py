"""mixed_precision_step: an ``optax.apply_if_finite``-style helper: the candidate params
computed unconditionally, then ``jnp.where(finite, new, old)`` per leaf by ``tree_map`` over
the two trees.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _all_finite(tree):
    return jnp.all(jnp.stack([jnp.all(jnp.isfinite(t)) for t in jax.tree_util.tree_leaves(tree)]))


def _apply_if_finite(finite, new, old):
    return jax.tree_util.tree_map(lambda n, o: jnp.where(finite, n, o), new, old)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    grads = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale,
                                   jax.grad(scaled_loss)(half))
    finite = _all_finite(grads)
    candidate = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    new_params = _apply_if_finite(finite, candidate, params)
    grow = good_steps + 1 == period
    new_scale = _apply_if_finite(finite, jnp.where(grow, loss_scale * 2, loss_scale), loss_scale / 2)
    new_good = _apply_if_finite(finite, jnp.where(grow, 0, good_steps + 1), jnp.zeros_like(good_steps))
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good.astype(jnp.int32),
            "finite": finite}
