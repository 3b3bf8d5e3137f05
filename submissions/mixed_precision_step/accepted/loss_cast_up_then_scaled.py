"""mixed_precision_step, honest: the float16 loss cast to float32 and multiplied by the float32
scale there (the backward pass still starts in float16 from the cast's derivative), the grads
taken with respect to a flat list of leaves and put back with tree_unflatten.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    leaves, tree = jax.tree_util.tree_flatten(params)
    half = [a.astype(jnp.float16) for a in leaves]
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled(flat):
        p = jax.tree_util.tree_unflatten(tree, flat)
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        loss16 = jnp.mean((hid @ p["out"]["w"] - y16) ** 2)
        return loss16.astype(jnp.float32) * loss_scale

    grads = jax.grad(scaled)(half)
    g = [a.astype(jnp.float32) / loss_scale for a in grads]
    finite = jnp.all(jnp.concatenate([jnp.isfinite(a).ravel() for a in g]))
    new = [jnp.where(finite, p - lr * d, p) for p, d in zip(leaves, g)]
    grow = good_steps + 1 == period
    return {"params": jax.tree_util.tree_unflatten(tree, new),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
