"""ema_scan: a ``lax.while_loop`` tested by ``jnp.less(t, T)`` whose state is a ``NamedTuple``
(counter, m, the output filled one row a trip).

Problem: ema_scan
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    t: jax.Array
    m: jax.Array
    out: jax.Array


def ema(x, decay):
    T = x.shape[0]

    def body(s):
        m = decay * s.m + (1.0 - decay) * x[s.t]
        return State(s.t + 1, m, s.out.at[s.t].set(m))

    s = jax.lax.while_loop(lambda s: jnp.less(s.t, T), body,
                           State(jnp.int32(0), jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return s.out
