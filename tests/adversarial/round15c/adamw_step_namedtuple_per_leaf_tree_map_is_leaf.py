"""adamw_step: the update of one leaf returns a ``typing.NamedTuple`` (``LeafState``); the tree of
them is split with ``jax.tree.map(..., is_leaf=lambda s: isinstance(s, LeafState))``, one field
at a time by ``getattr(s, field)`` with the field's name a parameter of a lambda; the
corrections written as ``1 - b ** t`` on a float32 ``t``.

Problem: adamw_step
Expected: AC
Open: RJ forbidden_construct: the source gate refuses ``getattr`` with a name it cannot read in
  the source, whatever the values the name takes; ``s.param`` (or ``operator.attrgetter`` of a
  literal) passes
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class LeafState(NamedTuple):
    param: jax.Array
    mu: jax.Array
    nu: jax.Array


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = jnp.float32(t)
    bc1 = 1 - b1 ** tf
    bc2 = 1 - b2 ** tf

    def one(p, g, mu, nu):
        mu = b1 * mu + (1 - b1) * g
        nu = b2 * nu + (1 - b2) * g * g
        step = (mu / bc1) / ((nu / bc2) ** 0.5 + eps)
        return LeafState(p - lr * (step + weight_decay * p), mu, nu)

    states = jax.tree.map(one, params, grads, m, v)
    is_state = lambda s: isinstance(s, LeafState)
    pick = lambda field: jax.tree.map(lambda s: getattr(s, field), states, is_leaf=is_state)
    return {"params": pick("param"), "m": pick("mu"), "v": pick("nu"), "count": t}
