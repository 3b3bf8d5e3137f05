"""per_example_clip: ``jax.vmap`` of ``jax.jacrev`` of one example's loss over a ``(w, b)`` tuple
(the per-example gradient as a pair), the joint norm by ``jnp.sqrt`` of ``jnp.vdot`` parts, the
clip factor ``jnp.minimum(1, C / norm)`` guarded for a zero norm with ``jnp.where``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def example_loss(params, x, y):
    w, b = params
    return 0.5 * (jnp.vdot(x, w) + b - y) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    gw, gb = jax.vmap(jax.jacrev(example_loss), in_axes=(None, 0, 0))((w, b), X, y)
    sq = jax.vmap(jnp.vdot)(gw, gw) + gb * gb
    norm = jnp.sqrt(sq)
    factor = jnp.where(norm > 0, jnp.minimum(1.0, clip_norm / jnp.where(norm > 0, norm, 1.0)), 1.0)
    return {"grad_w": jnp.mean(factor[:, None] * gw, axis=0), "grad_b": jnp.mean(factor * gb)}
