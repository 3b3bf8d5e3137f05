"""mixed_precision_step, honest: the jax.tree API (jax.tree.map, jax.tree.leaves), casts to
"float16" by name, the gradient unscaled by a product with 1 / loss_scale, finite from isfinite of the
sum of all entries (an inf or a NaN anywhere makes the sum non-finite).

Expected: AC
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(lambda a: a.astype("float16"), params)
    x16, y16 = x.astype("float16"), y.astype("float16")

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * loss_scale.astype("float16")

    inv = 1.0 / loss_scale
    g = jax.tree.map(lambda a: a.astype(jnp.float32) * inv, jax.grad(loss)(p16))
    total = sum(jnp.sum(a) for a in jax.tree.leaves(g))
    finite = jnp.isfinite(total)
    new = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    if period == 1:                      # a Python int: decided before tracing
        grow = jnp.bool_(True)
    else:
        grow = good_steps == period - 1
    return {"params": new,
            "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale + loss_scale, loss_scale),
                                    loss_scale * 0.5),
            "good_steps": jnp.where(finite & ~grow, good_steps + jnp.int32(1), jnp.int32(0)),
            "finite": finite}
