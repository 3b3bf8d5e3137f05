"""mixed_precision_step, honest: jax.vjp of the unscaled float16 loss pulled back with the scale
(cast to float16) as its cotangent, the gradient of loss * scale without a product in the loss;
finite from the raveled tree.

Expected: AC
"""
import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jax.tree_util.tree_map(lambda a: jnp.asarray(a, dtype=jnp.float16), params)
    x16 = jnp.asarray(x, dtype=jnp.float16)
    y16 = jnp.asarray(y, dtype=jnp.float16)

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean(jnp.square(hid @ p["out"]["w"] - y16))

    _, pull = jax.vjp(loss, half)
    (grads,) = pull(loss_scale.astype(jnp.float16))
    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    flat, _ = ravel_pytree(g)
    finite = jnp.isfinite(flat).all()
    new = jax.tree_util.tree_map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    grow = good_steps + 1 == period
    scale = jnp.where(finite, jnp.where(grow, loss_scale * 2.0, loss_scale), loss_scale * 0.5)
    good = jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0)
    return {"params": new, "loss_scale": scale, "good_steps": good.astype(jnp.int32),
            "finite": finite}
