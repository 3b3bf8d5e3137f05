"""mixed_precision_step: the counter and the scale updated with arithmetic instead of
selects: ``finite`` and ``wrap`` cast to int32 and float32 and multiplied in (``(n + 1) * f *
(1 - wrap)``, ``scale * (0.5 + 0.5 * f) * (1 + wrap)``), the params by ``p - f * lr * g`` where
g is zeroed when not finite (so the old params come back exactly); lr made a float32 array.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""

import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree_util.tree_map(lambda a: jnp.asarray(a, jnp.float16), params)
    x16 = jnp.asarray(x, jnp.float16)
    y16 = jnp.asarray(y, jnp.float16)

    def loss(p):
        hid = jnp.tanh(jnp.einsum("nd,dh->nh", x16, p["dense"]["w"]) + p["dense"]["b"])
        pred = jnp.einsum("nh,h->n", hid, p["out"]["w"])
        return jnp.mean(jnp.square(pred - y16)) * jnp.asarray(loss_scale, jnp.float16)

    grads = jax.grad(loss)(p16)
    g = jax.tree_util.tree_map(lambda a: jnp.asarray(a, jnp.float32) / loss_scale, grads)
    finite = jnp.array(True)
    for leaf in jax.tree_util.tree_leaves(g):
        finite = jnp.logical_and(finite, jnp.all(jnp.isfinite(leaf)))
    f = finite.astype(jnp.int32)
    wrap = ((good_steps + 1) == period).astype(jnp.int32) * f
    lr32 = jnp.float32(lr)
    new = jax.tree_util.tree_map(
        lambda p, d: p - f.astype(jnp.float32) * (lr32 * jnp.where(finite, d, 0.0)), params, g)
    steps = (good_steps + 1) * f * (1 - wrap)
    scale = loss_scale * (0.5 + 0.5 * f.astype(jnp.float32)) * (1 + wrap).astype(jnp.float32)
    return {"params": new, "loss_scale": scale, "good_steps": steps.astype(jnp.int32), "finite": finite}
