"""mixed_precision_step, honest: ``finite`` as ``jnp.isfinite`` of the sum of every leaf's sum of
the unscaled gradient (an infinite or NaN entry makes the sum infinite or NaN, and the finite
entries, below 65504 each, cannot overflow float32 when summed), not a norm.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda a: a.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(h(x) @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - h(y)) ** 2) * h(loss_scale)

    grads = jax.grad(loss)(jax.tree.map(h, params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.isfinite(sum(jnp.sum(a) for a in jax.tree.leaves(g)))
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
