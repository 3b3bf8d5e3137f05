"""per_example_clip: ``jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))``
for the per-example gradients, the joint norm with the bias part, the factor by
``jnp.maximum(1, norm / C)``; the norm taken safely (zero gradients give zero, not NaN, though
only values are compared here).

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss(w, b, x, y):
    return 0.5 * (jnp.dot(x, w) + b - y) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    gw, gb = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))(w, b, X, y)
    norm = jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2)
    factor = 1.0 / jnp.maximum(1.0, norm / clip_norm)
    return {"grad_w": jnp.mean(gw * factor[:, None], axis=0), "grad_b": jnp.mean(gb * factor)}
