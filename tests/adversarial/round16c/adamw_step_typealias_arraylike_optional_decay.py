"""adamw_step: ``typing.TypeAlias`` for the tree, ``jax.typing.ArrayLike`` and ``Optional`` in
the hints (a weight decay of ``None`` meaning none), ``jnp.asarray(b1, jnp.float32) ** t`` and
explicit ``.astype(jnp.float32)`` on every returned leaf and ``jnp.int32`` on the count.

Problem: adamw_step
Expected: AC
Cases: all
"""
from typing import Any, Optional, TypeAlias

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

PyTree: TypeAlias = Any


def _moments(g: ArrayLike, m: ArrayLike, v: ArrayLike, b1: float, b2: float):
    return b1 * m + (1.0 - b1) * g, b2 * v + (1.0 - b2) * g ** 2


def adamw_step(params: PyTree, grads: PyTree, m: PyTree, v: PyTree, count: ArrayLike,
               lr: float, b1: float, b2: float, eps: float,
               weight_decay: Optional[float] = None) -> dict:
    wd = 0.0 if weight_decay is None else weight_decay
    t = jnp.asarray(count, jnp.int32) + 1
    corr1 = 1.0 - jnp.asarray(b1, jnp.float32) ** t
    corr2 = 1.0 - jnp.asarray(b2, jnp.float32) ** t
    new_m = jax.tree_util.tree_map(lambda g, mm, vv: _moments(g, mm, vv, b1, b2)[0], grads, m, v)
    new_v = jax.tree_util.tree_map(lambda g, mm, vv: _moments(g, mm, vv, b1, b2)[1], grads, m, v)

    def update(p: ArrayLike, mm: ArrayLike, vv: ArrayLike) -> jax.Array:
        upd = (mm / corr1) / (jnp.sqrt(vv / corr2) + eps)
        return (p - lr * (upd + wd * p)).astype(jnp.float32)

    return {
        "params": jax.tree_util.tree_map(update, params, new_m, new_v),
        "m": jax.tree_util.tree_map(lambda a: a.astype(jnp.float32), new_m),
        "v": jax.tree_util.tree_map(lambda a: a.astype(jnp.float32), new_v),
        "count": t.astype(jnp.int32),
    }
