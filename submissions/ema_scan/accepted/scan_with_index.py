from typing import Tuple

import jax
import jax.numpy as jnp
from jax import Array


def ema(x: Array, decay: float) -> Array:
    def step(carry: Tuple[Array, Array], t: Array) -> Tuple[Tuple[Array, Array], None]:
        m, out = carry
        m = decay * m + (1.0 - decay) * jax.lax.dynamic_index_in_dim(x, t, keepdims=False)
        out = jax.lax.dynamic_update_index_in_dim(out, m, t, axis=0)
        return (m, out), None

    (_, out), _ = jax.lax.scan(step, (jnp.zeros_like(x[0]), jnp.zeros_like(x)), jnp.arange(x.shape[0]))
    return out
