"""per_example_clip: a cheat that never reads n: a Python loop over the largest batch, 64 rows,
each taken with ``jnp.take(..., mode="fill")`` and counted only where its index is below n (as
an array comparison), one example's gradient at a time: a loop padded to a fixed count.

Problem: per_example_clip
Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    n = jnp.asarray(X.shape[0])
    total_w = jnp.zeros_like(w)
    total_b = jnp.zeros_like(b)
    for i in range(64):
        x = jnp.take(X, i, axis=0, mode="fill", fill_value=0.0)
        t = jnp.take(y, i, axis=0, mode="fill", fill_value=0.0)
        gw, gb = jax.grad(lambda w, b: 0.5 * (x @ w + b - t) ** 2, argnums=(0, 1))(w, b)
        norm = jnp.sqrt(jnp.sum(gw * gw) + gb * gb)
        keep = jnp.where(i < n, 1.0, 0.0) / jnp.maximum(1.0, norm / clip_norm)
        total_w = total_w + keep * gw
        total_b = total_b + keep * gb
    return {"grad_w": total_w / n, "grad_b": total_b / n}
