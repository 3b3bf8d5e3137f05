"""mixed_precision_step, honest: the params chosen by lax.cond between the stepped tree and the
old one (the gradient closed over), the loss mean as jnp.average;
the counter and the scale decided with integer arithmetic on finite.

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    def to16(t):
        return jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), t)

    def loss(p, x, y):
        hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.average((hid @ p["out"]["w"] - y) ** 2)

    grad_fn = jax.grad(lambda p: loss(p, *to16((x, y))) * loss_scale.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grad_fn(to16(params)))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree_util.tree_leaves(g)]))
    new = jax.lax.cond(finite,
                       lambda: jax.tree_util.tree_map(lambda p, d: p - lr * d, params, g),
                       lambda: params)
    f = finite.astype(jnp.int32)
    grow = (good_steps + 1 == period).astype(jnp.int32)
    good = f * (1 - grow) * (good_steps + 1)
    scale = jnp.where(f == 1, loss_scale * (1 + grow).astype(jnp.float32), loss_scale / 2)
    return {"params": new, "loss_scale": scale, "good_steps": good.astype(jnp.int32),
            "finite": finite}
