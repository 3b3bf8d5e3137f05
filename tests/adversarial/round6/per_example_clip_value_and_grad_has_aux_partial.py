"""per_example_clip: ``jax.vmap`` of ``jax.value_and_grad(..., argnums=(0, 1), has_aux=True)``
(the residual as aux), a per-example clip function vmapped with ``functools.partial`` binding
clip_norm, and ``jax.tree_util.tree_map`` for the means.

Problem: per_example_clip
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp


def _loss(w, b, x, t):
    r = jnp.vdot(x, w) + b - t
    return 0.5 * r * r, r


def _clip_one(gw, gb, clip_norm):
    sq = jnp.vdot(gw, gw) + gb * gb
    norm = jnp.sqrt(jnp.where(sq > 0, sq, 1.0))
    div = jnp.where(sq > 0, jnp.maximum(1.0, norm / clip_norm), 1.0)
    return gw / div, gb / div


def clipped_mean_grad(w, b, X, y, clip_norm):
    vg = jax.value_and_grad(_loss, argnums=(0, 1), has_aux=True)
    (_, _), (gw, gb) = jax.vmap(vg, in_axes=(None, None, 0, 0))(w, b, X, y)
    cw, cb = jax.vmap(functools.partial(_clip_one, clip_norm=clip_norm))(gw, gb)
    means = jax.tree_util.tree_map(lambda a: jnp.mean(a, axis=0), (cw, cb))
    return {"grad_w": means[0], "grad_b": means[1]}
