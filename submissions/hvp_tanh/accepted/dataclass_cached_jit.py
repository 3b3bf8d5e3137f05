"""Honest: a frozen dataclass for the model, an lru_cache'd factory of the jitted HVP keyed on
nothing traced, type hints, shape assertions and a print at trace time."""
from __future__ import annotations

import functools
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class TanhModel:
    W: jax.Array

    def loss(self, x: jax.Array) -> jax.Array:
        return jnp.sum(jnp.tanh(self.W @ x))


@functools.lru_cache(maxsize=None)
def _hvp_fn():
    def run(W: jax.Array, x: jax.Array, v: jax.Array) -> jax.Array:
        model = TanhModel(W)
        return jax.jvp(jax.grad(model.loss), (x,), (v,))[1]
    return jax.jit(run)


def hvp(W: jax.Array, x: jax.Array, v: jax.Array) -> jax.Array:
    assert W.ndim == 2 and x.shape == v.shape == (W.shape[1],), (W.shape, x.shape, v.shape)
    print("tracing hvp at", W.shape)
    return _hvp_fn()(W, x, v)
