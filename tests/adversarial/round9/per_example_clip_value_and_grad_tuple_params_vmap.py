"""per_example_clip: ``jax.vmap`` of ``jax.value_and_grad`` over the examples with a tuple
``(w, b)`` as the differentiated argument (``in_axes=(None, 0, 0)``), the joint norm by
``jnp.sqrt`` of both parts' squares, clipped with ``jnp.maximum(1.0, norm / C)``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(wb, x, y):
    w, b = wb
    return 0.5 * (jnp.dot(x, w) + b - y) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    _, (gw, gb) = jax.vmap(jax.value_and_grad(_loss), in_axes=(None, 0, 0))((w, b), X, y)
    norms = jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2)
    factor = 1.0 / jnp.maximum(1.0, norms / clip_norm)
    return {"grad_w": jnp.mean(gw * factor[:, None], axis=0), "grad_b": jnp.mean(gb * factor)}
