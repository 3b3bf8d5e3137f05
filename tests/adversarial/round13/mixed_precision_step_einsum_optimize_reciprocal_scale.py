"""mixed_precision_step: the float16 products by ``jnp.einsum(..., optimize="greedy")``, the
gradient unscaled by multiplying with ``1 / loss_scale`` (the scale is no value computed from
params, x or y), ``finite`` from ``jnp.isfinite`` of each leaf by ``jax.tree.map`` and
``jnp.all`` of a stack.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = jax.tree.map(lambda a: a.astype(jnp.float16), {"p": params, "x": x, "y": y})

    def scaled(p):
        z = jnp.einsum("nd,dh->nh", h["x"], p["dense"]["w"], optimize="greedy") + p["dense"]["b"]
        pred = jnp.einsum("nh,h->n", jnp.tanh(z), p["out"]["w"], optimize="greedy")
        return jnp.mean((pred - h["y"]) ** 2) * loss_scale.astype(jnp.float16)

    inv = 1.0 / loss_scale
    g = jax.tree.map(lambda a: a.astype(jnp.float32) * inv, jax.grad(scaled)(h["p"]))
    finite = jnp.all(jnp.stack(jax.tree.leaves(jax.tree.map(lambda a: jnp.all(jnp.isfinite(a)), g))))
    grow = jnp.equal(good_steps + 1, period)
    return {
        "params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
        "loss_scale": jnp.where(finite, jnp.where(grow, loss_scale + loss_scale, loss_scale), loss_scale * 0.5),
        "good_steps": jnp.where(finite, jnp.where(grow, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": finite,
    }
