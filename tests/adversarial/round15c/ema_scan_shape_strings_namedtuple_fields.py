"""ema_scan: a ``typing.NamedTuple`` carry whose field is annotated with a jaxtyping-style string
(``mean: "Float[Array, 'd']"``) and a step annotated ``Float[Array, "T d"]`` under
``from __future__ import annotations``, the scan's carry the tuple itself.

Problem: ema_scan
Expected: AC
Cases: all
"""
from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    mean: "Float[Array, 'd']"


def ema(x: Float[Array, "T d"], decay: float) -> Float[Array, "T d"]:
    def step(state: State, row: Float[Array, "d"]) -> tuple[State, Float[Array, "d"]]:
        mean = decay * state.mean + (1.0 - decay) * row
        return State(mean), mean

    return jax.lax.scan(step, State(jnp.zeros_like(x[0])), x)[1]
