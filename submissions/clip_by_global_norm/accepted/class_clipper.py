"""Honest: a frozen dataclass holding max_norm, with type hints and a method per step."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax
import jax.numpy as jnp

PyTree = Any


@dataclass(frozen=True)
class GlobalNormClipper:
    max_norm: float

    @staticmethod
    def norm(tree: PyTree) -> jax.Array:
        sq = jax.tree_util.tree_reduce(lambda acc, x: acc + jnp.sum(x ** 2), tree, 0.0)
        ok = sq > 0.0
        return jnp.where(ok, jnp.sqrt(jnp.where(ok, sq, 1.0)), 0.0)

    def factor(self, tree: PyTree) -> jax.Array:
        g = self.norm(tree)
        return jnp.where(g > self.max_norm, self.max_norm / jnp.where(g > 0, g, 1.0), 1.0)

    def __call__(self, tree: PyTree) -> PyTree:
        f = self.factor(tree)
        return jax.tree_util.tree_map(lambda x: f * x, tree)


def clip_by_global_norm(grads: PyTree, max_norm: float) -> PyTree:
    return GlobalNormClipper(max_norm)(grads)
