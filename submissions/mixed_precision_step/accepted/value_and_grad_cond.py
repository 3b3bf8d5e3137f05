import jax
import jax.numpy as jnp


def _forward(p, x, y):
    hid = jnp.tanh(jnp.dot(x, p["dense"]["w"]) + p["dense"]["b"])
    pred = jnp.dot(hid, p["out"]["w"])
    return jnp.mean(jnp.square(pred - y))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree.map(lambda a: a.astype(jnp.float16), params)
    scale16 = loss_scale.astype(jnp.float16)
    _, grads = jax.value_and_grad(lambda p: _forward(p, x.astype(jnp.float16), y.astype(jnp.float16)) * scale16)(half)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))

    def apply(_):
        grow = good_steps + 1 == period
        return (jax.tree.map(lambda p, d: p - lr * d, params, g),
                jnp.where(grow, loss_scale * 2, loss_scale),
                jnp.where(grow, jnp.int32(0), good_steps + 1))

    def skip(_):
        return params, loss_scale / 2, jnp.int32(0)

    new, scale, good = jax.lax.cond(finite, apply, skip, None)
    return {"params": new, "loss_scale": scale, "good_steps": good, "finite": finite}
