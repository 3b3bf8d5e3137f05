"""per_example_clip: one example's clipped gradient under ``jax.vmap(..., axis_name="batch")``,
the mean taken inside the mapped function with ``lax.pmean`` over the named axis (the style of
data-parallel code), so the vmap returns the mean once per example and row 0 is kept.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _loss(params, x, y):
    w, b = params
    return 0.5 * (jnp.dot(x, w) + b - y) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    def one(x, t):
        gw, gb = jax.grad(_loss)((w, b), x, t)
        norm = jnp.sqrt(jnp.sum(gw * gw) + gb * gb)
        factor = 1.0 / jnp.maximum(1.0, norm / clip_norm)
        return lax.pmean((gw * factor, gb * factor), axis_name="batch")

    gw, gb = jax.vmap(one, axis_name="batch")(X, y)
    return {"grad_w": gw[0], "grad_b": gb[0]}
