"""per_example_clip: the per-example loss written as ``loss(w, b, input, target)`` (PyTorch's
names), its gradient mapped over the examples with ``jax.vmap``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(w, b, input, target):
        return 0.5 * (jnp.dot(input, w) + b - target) ** 2

    gw, gb = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    norms = jnp.sqrt(jnp.sum(gw * gw, axis=1) + gb * gb)
    scale = 1.0 / jnp.maximum(1.0, norms / clip_norm)
    return {"grad_w": jnp.mean(gw * scale[:, None], axis=0), "grad_b": jnp.mean(gb * scale)}
