"""mixed_precision_step: params and gradients flattened by ``jax.tree.flatten``, the update a
list comprehension over the three leaves, rebuilt by ``treedef.unflatten``; ``finite`` as
``jnp.stack`` of the leaves' flags ``.all()``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss16(p, x, y):
    z = x @ p["dense"]["w"] + p["dense"]["b"]
    d = jnp.tanh(z) @ p["out"]["w"] - y
    return jnp.mean(d * d)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    leaves, treedef = jax.tree.flatten(params)
    p16 = treedef.unflatten([a.astype(jnp.float16) for a in leaves])
    s16 = loss_scale.astype(jnp.float16)
    g16 = jax.grad(lambda p: _loss16(p, x.astype(jnp.float16), y.astype(jnp.float16)) * s16)(p16)
    g_leaves = [a.astype(jnp.float32) / loss_scale for a in treedef.flatten_up_to(g16)]
    finite = jnp.stack([jnp.isfinite(a).all() for a in g_leaves]).all()
    new = treedef.unflatten([jnp.where(finite, p - lr * d, p) for p, d in zip(leaves, g_leaves)])
    grow = good_steps + 1 == period
    return {
        "params": new,
        "loss_scale": jnp.where(finite & grow, loss_scale * 2.0, jnp.where(finite, loss_scale, loss_scale * 0.5)),
        "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
        "finite": finite,
    }
