"""clip_by_global_norm: ``from __future__ import annotations``, ``jax.Array`` hints, a
recursive dict comprehension for the scaling, the squared norm by a generator over
``jax.tree.leaves`` with ``jnp.sum(jnp.abs(x) ** 2)``; the factor by the where-guarded
square root and ``jnp.minimum``; f-string debug prints of the shapes.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp


def _scaled(tree: Any, s: jax.Array) -> Any:
    return {k: _scaled(v, s) if isinstance(v, dict) else v * s for k, v in tree.items()}


def clip_by_global_norm(grads: dict, max_norm: float) -> dict:
    leaves = jax.tree.leaves(grads)
    print(f"{len(leaves)=} {[x.shape for x in leaves]=}")
    sq = sum(jnp.sum(jnp.abs(x) ** 2) for x in leaves)
    pos = sq > 0.0
    g = jnp.sqrt(jnp.where(pos, sq, 1.0))
    factor = jnp.where(pos, jnp.minimum(1.0, max_norm / g), 1.0)
    return _scaled(grads, factor)
