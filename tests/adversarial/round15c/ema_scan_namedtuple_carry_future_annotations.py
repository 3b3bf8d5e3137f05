"""ema_scan: ``from __future__ import annotations``, the carry a ``typing.NamedTuple`` with one
field, ``jnp.float32`` casts of ``decay`` and ``1 - decay`` as module-free locals, the step's
output the new mean.

Problem: ema_scan
Expected: AC
Cases: all
"""
from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Carry(NamedTuple):
    mean: jax.Array


def ema(x: jax.Array, decay: float) -> jax.Array:
    keep = jnp.float32(decay)
    take = jnp.float32(1.0 - decay)

    def step(carry: Carry, row: jax.Array) -> tuple[Carry, jax.Array]:
        mean = keep * carry.mean + take * row
        return Carry(mean), mean

    _, out = jax.lax.scan(step, Carry(jnp.zeros(x.shape[1:], x.dtype)), x)
    return out
