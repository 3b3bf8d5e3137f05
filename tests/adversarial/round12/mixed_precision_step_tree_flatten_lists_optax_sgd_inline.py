"""mixed_precision_step: ``jax.tree_util.tree_flatten`` to a list of leaves and
``tree_unflatten`` back, the float16 loss over the list, updates made ``optax.sgd``-style
(``-lr * g``, then ``apply_updates`` as ``p + u``), each leaf masked by ``jnp.where``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def sgd_updates(grads, lr):
    return [-lr * g for g in grads]


def apply_updates(params, updates):
    return [jnp.asarray(p + u).astype(p.dtype) for p, u in zip(params, updates)]


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    leaves, treedef = jax.tree_util.tree_flatten(params)
    x16 = x.astype(jnp.float16)
    y16 = y.astype(jnp.float16)

    def loss(flat16):
        p = jax.tree_util.tree_unflatten(treedef, flat16)
        hid = jnp.tanh(jnp.matmul(x16, p["dense"]["w"]) + p["dense"]["b"])
        pred = jnp.matmul(hid, p["out"]["w"])
        return jnp.mean((pred - y16) * (pred - y16)) * loss_scale.astype(jnp.float16)

    g16 = jax.grad(loss)([leaf.astype(jnp.float16) for leaf in leaves])
    grads = [g.astype(jnp.float32) / loss_scale for g in g16]
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(g)) for g in grads]))
    stepped = apply_updates(leaves, sgd_updates(grads, lr))
    kept = [jnp.where(finite, s, p) for s, p in zip(stepped, leaves)]
    complete = good_steps + 1 == period
    scale = jnp.where(finite, jnp.where(complete, loss_scale * 2, loss_scale), loss_scale / 2)
    good = jnp.where(finite & jnp.logical_not(complete), good_steps + 1, 0)
    return {"params": jax.tree_util.tree_unflatten(treedef, kept), "loss_scale": scale,
            "good_steps": good.astype(jnp.int32), "finite": finite}
