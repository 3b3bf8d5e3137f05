import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree

F16 = jnp.float16


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    flat, unravel = ravel_pytree(params)
    flat16 = flat.astype(F16)
    _, unravel16 = ravel_pytree(jax.tree_util.tree_map(lambda a: a.astype(F16), params))
    x16, y16 = x.astype(F16), y.astype(F16)

    def loss(v):
        p = unravel16(v)
        hid = jnp.tanh(jnp.matmul(x16, p["dense"]["w"]) + p["dense"]["b"])
        return jnp.mean(jnp.square(jnp.matmul(hid, p["out"]["w"]) - y16))

    def scaled(v):
        return loss(v) * loss_scale.astype(F16)

    out, pullback = jax.vjp(scaled, flat16)
    (g16,) = pullback(jnp.ones_like(out))
    g = g16.astype(jnp.float32) / loss_scale
    finite = jnp.isfinite(g).all()
    new_flat = jnp.where(finite, flat - lr * g, flat)
    rolled = good_steps + 1
    at_period = rolled == period
    return {
        "params": unravel(new_flat),
        "loss_scale": jnp.where(finite, jnp.where(at_period, 2.0 * loss_scale, loss_scale), 0.5 * loss_scale),
        "good_steps": jnp.where(finite & ~at_period, rolled, jnp.int32(0)),
        "finite": finite,
    }
