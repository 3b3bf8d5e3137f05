"""adamw_step: the optimizer written the way ``optax`` composes it, without importing it: three
hand-written gradient transformations (Adam's scaling, the decoupled weight decay, the
learning rate), each a NamedTuple of ``init`` and ``update``, folded by a ``chain`` helper.
The moments come back from the first transformation's state.

Problem: adamw_step
Expected: AC
Cases: all
"""
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp


class Transform(NamedTuple):
    init: Callable[[Any], Any]
    update: Callable[[Any, Any, Any], tuple]


class AdamState(NamedTuple):
    count: jax.Array
    mu: Any
    nu: Any


def scale_by_adam(b1: float, b2: float, eps: float) -> Transform:
    def init(params):
        zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
        return AdamState(jnp.zeros([], jnp.int32), zeros, zeros)

    def update(updates, state, params=None):
        mu = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, updates)
        nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state.nu, updates)
        count = state.count + 1
        c = count.astype(jnp.float32)
        bc1, bc2 = 1 - b1 ** c, 1 - b2 ** c
        out = jax.tree_util.tree_map(lambda m, v: (m / bc1) / (jnp.sqrt(v / bc2) + eps), mu, nu)
        return out, AdamState(count, mu, nu)

    return Transform(init, update)


def add_decayed_weights(weight_decay: float) -> Transform:
    def update(updates, state, params=None):
        return jax.tree_util.tree_map(lambda u, p: u + weight_decay * p, updates, params), state

    return Transform(lambda params: (), update)


def scale(factor: float) -> Transform:
    def update(updates, state, params=None):
        return jax.tree_util.tree_map(lambda u: factor * u, updates), state

    return Transform(lambda params: (), update)


def chain(*transforms: Transform) -> Transform:
    def init(params):
        return tuple(t.init(params) for t in transforms)

    def update(updates, state, params=None):
        new_state = []
        for t, s in zip(transforms, state):
            updates, s = t.update(updates, s, params)
            new_state.append(s)
        return updates, tuple(new_state)

    return Transform(init, update)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    opt = chain(scale_by_adam(b1, b2, eps), add_decayed_weights(weight_decay), scale(-lr))
    state = (AdamState(count, m, v), (), ())
    updates, (adam, _, _) = opt.update(grads, state, params)
    new_params = jax.tree_util.tree_map(lambda p, u: p + u, params, updates)
    return {"params": new_params, "m": adam.mu, "v": adam.nu, "count": adam.count}
