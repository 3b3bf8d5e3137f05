"""mixed_precision_step: the student checks the gradient with
``jax.tree_util.tree_all(jax.tree_util.tree_map(lambda a: jnp.isfinite(a).all(), g))``, which
calls Python's ``all`` on the traced leaves, a Python bool of a traced value: the statement
forbids that, and it cannot be traced.

Problem: mixed_precision_step
Expected: RJ traced_value_concretized
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)

    def loss(p):
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y.astype(jnp.float16)) ** 2)

    grads = jax.grad(lambda p: loss(p) * loss_scale.astype(jnp.float16))(p16)
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.asarray(jax.tree_util.tree_all(jax.tree_util.tree_map(lambda a: jnp.isfinite(a).all(), g)))
    full = good_steps + 1 == period
    return {"params": jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": jnp.where(finite, jnp.where(full, loss_scale * 2, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0),
            "finite": finite}
