"""ema_scan: ``lax.scan`` whose carry is a dataclass registered with
``jax.tree_util.register_dataclass`` holding m and a step count.

Problem: ema_scan
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Avg:
    m: jax.Array
    steps: jax.Array


def ema(x, decay):
    def step(a, row):
        m = decay * a.m + (1.0 - decay) * row
        return Avg(m, a.steps + 1), m

    _, out = jax.lax.scan(step, Avg(jnp.zeros_like(x[0]), jnp.int32(0)), x)
    return out
