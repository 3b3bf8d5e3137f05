"""mixed_precision_step: the params flattened to a list of leaves with
``jax.tree_util.tree_flatten``, the gradient taken with respect to that list (the casts to
float16 inside the loss, so the gradient comes back in float32 through the casts' transposes,
after a float16 backward pass), and the tree rebuilt with ``tree_unflatten``.

Problem: mixed_precision_step
Expected: AC
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    leaves, treedef = jax.tree_util.tree_flatten(params)

    def scaled_loss(leaves):
        p = jax.tree_util.tree_unflatten(treedef, [a.astype(jnp.float16) for a in leaves])
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y.astype(jnp.float16)
        return jnp.mean(err * err) * loss_scale.astype(jnp.float16)

    grads = jax.grad(scaled_loss)(leaves)
    g = [a.astype(jnp.float32) / loss_scale for a in grads]
    finite = jnp.all(jnp.concatenate([jnp.isfinite(a).ravel() for a in g]))
    new = [jnp.where(finite, p - lr * d, p) for p, d in zip(leaves, g)]
    grow = jnp.logical_and(finite, good_steps == period - 1)
    return {
        "params": jax.tree_util.tree_unflatten(treedef, new),
        "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), 0.5 * loss_scale),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
