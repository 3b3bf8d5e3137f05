import jax
import jax.numpy as jnp

from jax.flatten_util import ravel_pytree


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    flat, unravel = ravel_pytree(params)

    def scaled_loss(flat16):
        p = unravel(flat16)  # unravel casts back to float32: cast the leaves again
        p = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), p)
        hid = jnp.tanh(x.astype(jnp.float16) @ p["dense"]["w"] + p["dense"]["b"])
        loss = jnp.mean((hid @ p["out"]["w"] - y.astype(jnp.float16)) ** 2)
        return loss * loss_scale.astype(jnp.float16)

    grad = jax.grad(scaled_loss)(flat.astype(jnp.float16))
    g = grad.astype(jnp.float32) / loss_scale
    finite = jnp.all(jnp.isfinite(g))
    new = unravel(jnp.where(finite, flat - lr * g, flat))
    grow = good_steps + 1 == period
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), 0.5 * loss_scale),
            "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
            "finite": finite}
