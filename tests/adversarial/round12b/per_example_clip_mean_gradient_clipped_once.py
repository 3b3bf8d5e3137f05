"""per_example_clip: the mean gradient clipped once (ordinary clipping, not per example): the
values are wrong wherever examples are clipped unequally.

Problem: per_example_clip
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(w, b):
        return jnp.mean(0.5 * (X @ w + b - y) ** 2)

    gw, gb = jax.grad(loss, argnums=(0, 1))(w, b)
    norm = jnp.sqrt(jnp.sum(gw ** 2) + gb ** 2)
    f = 1.0 / jnp.maximum(1.0, norm / clip_norm)
    return {"grad_w": gw * f, "grad_b": gb * f}
