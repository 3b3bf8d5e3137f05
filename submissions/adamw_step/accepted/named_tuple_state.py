"""Honest: a NamedTuple optimizer state and a small optimizer class with type hints."""
from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

PyTree = Any


class AdamState(NamedTuple):
    count: jax.Array
    mu: PyTree
    nu: PyTree


class AdamW:
    def __init__(self, lr: float, b1: float, b2: float, eps: float, weight_decay: float):
        self.lr, self.b1, self.b2, self.eps, self.wd = lr, b1, b2, eps, weight_decay

    def update(self, grads: PyTree, state: AdamState, params: PyTree) -> tuple[PyTree, AdamState]:
        mu = jax.tree_util.tree_map(lambda g, t: self.b1 * t + (1 - self.b1) * g, grads, state.mu)
        nu = jax.tree_util.tree_map(lambda g, t: self.b2 * t + (1 - self.b2) * g * g, grads, state.nu)
        count = state.count + 1
        t = count.astype(jnp.float32)
        c1, c2 = 1 - self.b1 ** t, 1 - self.b2 ** t
        new = jax.tree_util.tree_map(
            lambda p, a, b: p - self.lr * ((a / c1) / (jnp.sqrt(b / c2) + self.eps) + self.wd * p),
            params, mu, nu)
        return new, AdamState(count, mu, nu)


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    new_params, state = AdamW(lr, b1, b2, eps, weight_decay).update(grads, AdamState(count, m, v), params)
    return {"params": new_params, "m": state.mu, "v": state.nu, "count": state.count}
