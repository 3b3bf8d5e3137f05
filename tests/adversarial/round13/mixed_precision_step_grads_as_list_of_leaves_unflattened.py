"""mixed_precision_step: the params flattened to a list of leaves with ``jax.tree_util.tree_flatten``,
the loss written over the list, the gradient (a list) unscaled and checked leaf by leaf, and the
new params rebuilt by ``tree_unflatten``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    leaves, treedef = jax.tree_util.tree_flatten(params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(half_leaves):
        p = jax.tree_util.tree_unflatten(treedef, half_leaves)
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype(jnp.float16)

    grads = jax.grad(scaled_loss)([a.astype(jnp.float16) for a in leaves])
    g = [a.astype(jnp.float32) / loss_scale for a in grads]
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in g]))
    new_leaves = [jnp.where(finite, p - lr * d, p) for p, d in zip(leaves, g)]
    grow = good_steps + 1 == period
    return {
        "params": jax.tree_util.tree_unflatten(treedef, new_leaves),
        "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), 0.5 * loss_scale),
        "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": finite,
    }
