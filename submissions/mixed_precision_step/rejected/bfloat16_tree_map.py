# bfloat16 instead of float16: its range is float32's, so it never overflows
import jax
import jax.numpy as jnp

H = jnp.bfloat16


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p = jax.tree.map(lambda a: a.astype(H), params)
    def loss(p):
        hid = jnp.tanh(x.astype(H) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y.astype(H)) ** 2) * loss_scale.astype(H)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(loss)(p))
    finite = jnp.all(jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    full = good_steps + 1 == period
    return {"params": jax.tree.map(lambda a, d: jnp.where(finite, a - lr * d, a), params, g),
            "loss_scale": jnp.where(finite, jnp.where(full, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~full, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
