import jax
import jax.numpy as jnp


def _loss(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    return jnp.mean((pred - y) ** 2)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = lambda a: a.astype(jnp.float16)
    p16 = jax.tree_util.tree_map(half, params)
    scale16 = half(loss_scale)
    grads16 = jax.grad(lambda p: _loss(p, half(x), half(y)) * scale16)(p16)
    g = jax.tree_util.tree_map(lambda t: t.astype(jnp.float32) / loss_scale, grads16)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(t)) for t in jax.tree_util.tree_leaves(g)]))
    new_params = jax.tree_util.tree_map(lambda p, t: jnp.where(finite, p - lr * t, p), params, g)
    full = good_steps + 1 == period
    new_scale = jnp.where(finite, jnp.where(full, loss_scale * 2, loss_scale), loss_scale / 2)
    new_good = jnp.where(finite, jnp.where(full, 0, good_steps + 1), 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": new_scale.astype(jnp.float32),
            "good_steps": new_good, "finite": finite}
