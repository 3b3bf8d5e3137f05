"""adamw_step: ``from __future__ import annotations`` with ``jax.Array`` hints, the five
hyperparameters packed in a ``dataclasses.dataclass(frozen=True)`` built inside the function,
and a leaf update with keyword-only arguments that reads them off the dataclass.

Problem: adamw_step
Expected: AC
Cases: all
"""
from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class HParams:
    lr: float
    b1: float
    b2: float
    eps: float
    weight_decay: float


def _leaf(p: jax.Array, g: jax.Array, m: jax.Array, v: jax.Array, *, hp: HParams,
          bc1: jax.Array, bc2: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    m_new = hp.b1 * m + (1.0 - hp.b1) * g
    v_new = hp.b2 * v + (1.0 - hp.b2) * jnp.square(g)
    direction = (m_new / bc1) / (jnp.sqrt(v_new / bc2) + hp.eps)
    return p - hp.lr * (direction + hp.weight_decay * p), m_new, v_new


def adamw_step(params, grads, m, v, count: jax.Array, lr: float, b1: float, b2: float,
               eps: float, weight_decay: float) -> dict:
    hp = HParams(lr, b1, b2, eps, weight_decay)
    t = count + 1
    tf = t.astype(jnp.float32)
    bc1 = 1.0 - jnp.power(jnp.float32(hp.b1), tf)
    bc2 = 1.0 - jnp.power(jnp.float32(hp.b2), tf)
    leaves_p, treedef = jax.tree_util.tree_flatten(params)
    triples = [_leaf(p, g, mm, vv, hp=hp, bc1=bc1, bc2=bc2)
               for p, g, mm, vv in zip(leaves_p, treedef.flatten_up_to(grads),
                                       treedef.flatten_up_to(m), treedef.flatten_up_to(v))]
    new_p, new_m, new_v = ([tr[i] for tr in triples] for i in range(3))
    return {"params": treedef.unflatten(new_p), "m": treedef.unflatten(new_m),
            "v": treedef.unflatten(new_v), "count": t}
