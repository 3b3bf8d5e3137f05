"""per_example_clip: ``jax.jit`` with ``static_argnames=("clip_norm",)``; the per-example
gradient as ``jax.vmap`` of ``functools.partial(jax.grad(loss, argnums=(0, 1)), w, b)`` (w and b
closed in), the factor ``1 / jnp.clip(norm / C, 1.0)`` with only a lower bound.

Problem: per_example_clip
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def loss(w, b, x, y):
    return 0.5 * (jnp.vdot(x, w) + b - y) ** 2


@partial(jax.jit, static_argnames=("clip_norm",))
def clipped_mean_grad(w, b, X, y, clip_norm):
    gw, gb = jax.vmap(partial(jax.grad(loss, argnums=(0, 1)), w, b))(X, y)
    norms = jnp.sqrt(jnp.sum(gw ** 2, axis=-1) + gb ** 2)
    factor = 1.0 / jnp.clip(norms / clip_norm, 1.0)
    return {"grad_w": jnp.mean(gw * factor[:, None], axis=0), "grad_b": jnp.mean(gb * factor)}
