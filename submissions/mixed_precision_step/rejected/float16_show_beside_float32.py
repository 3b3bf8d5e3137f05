"""mixed_precision_step, cheat: the reference's float16 gradient computed, and its finiteness
used, but the step applied with a float32 gradient computed by hand without products or tanh
(more accurate params): the float16 gradient only decides the flags.

Expected: RJ wrong_precision
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    f16 = jnp.float16
    p16 = jax.tree_util.tree_map(lambda a: a.astype(f16), params)

    def scaled(p):
        hid = jnp.tanh(x.astype(f16) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y.astype(f16)) ** 2) * loss_scale.astype(f16)

    g16 = jax.grad(scaled)(p16)
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g16)]))
    w, b, w2 = params["dense"]["w"], params["dense"]["b"], params["out"]["w"]
    z = jnp.sum(x[:, :, None] * w[None], axis=1) + b
    hid = 1 - 2 / (jnp.exp(2 * z) + 1)
    dpred = 2 * (jnp.sum(hid * w2, axis=1) - y) / x.shape[0]
    dz = dpred[:, None] * w2[None, :] * (1 - hid * hid)
    g = {"dense": {"w": jnp.sum(x[:, :, None] * dz[:, None, :], axis=0), "b": jnp.sum(dz, axis=0)},
         "out": {"w": jnp.sum(hid * dpred[:, None], axis=0)}}
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
