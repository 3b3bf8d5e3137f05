"""clip_by_global_norm: a frozen dataclass for the configuration, the leaves scaled with
``jax.tree_util.tree_map_with_path`` (the path only printed at trace time), the norm through
``ravel_pytree`` and the choice with ``lax.select``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import lax
from jax.flatten_util import ravel_pytree


@dataclass(frozen=True)
class ClipConfig:
    max_norm: float


def _safe_norm(flat):
    sq = jnp.dot(flat, flat)
    nonzero = sq > 0
    return lax.select(nonzero, jnp.sqrt(lax.select(nonzero, sq, jnp.ones_like(sq))),
                      jnp.zeros_like(sq))


def clip_by_global_norm(grads, max_norm):
    cfg = ClipConfig(max_norm=max_norm)
    flat, _ = ravel_pytree(grads)
    g = _safe_norm(flat)
    clip = g > cfg.max_norm
    factor = lax.select(clip, cfg.max_norm / lax.select(clip, g, jnp.ones_like(g)),
                        jnp.ones_like(g))

    def scale(path, leaf):
        print("scaling", jax.tree_util.keystr(path))
        return leaf * factor

    return jax.tree_util.tree_map_with_path(scale, grads)
