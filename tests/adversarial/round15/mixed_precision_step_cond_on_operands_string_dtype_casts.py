"""mixed_precision_step, honest: casts by ``.astype("float16")`` and ``.astype("float32")`` (dtype
names as strings), the step chosen by ``lax.cond(finite, apply, skip, params, g, loss_scale,
good_steps)`` with operands, each branch returning the whole dict but ``finite``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    def scaled_loss(p):
        hid = jnp.tanh(x.astype("float16") @ p["dense"]["w"] + p["dense"]["b"])
        err = hid @ p["out"]["w"] - y.astype("float16")
        return (err * err).mean() * loss_scale.astype("float16")

    grads = jax.grad(scaled_loss)(jax.tree.map(lambda a: a.astype("float16"), params))
    g = jax.tree.map(lambda a: a.astype("float32") / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))

    def apply(p, g, s, n):
        grow = n + 1 == period
        return {"params": jax.tree.map(lambda a, b: a - lr * b, p, g),
                "loss_scale": jnp.where(grow, s * 2, s),
                "good_steps": jnp.where(grow, jnp.int32(0), n + 1)}

    def skip(p, g, s, n):
        return {"params": p, "loss_scale": s / 2, "good_steps": jnp.int32(0) * n}

    out = lax.cond(finite, apply, skip, params, g, loss_scale, good_steps)
    out["finite"] = finite
    return out
