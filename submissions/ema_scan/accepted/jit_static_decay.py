from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def ema(x, decay):
    keep, take = decay, 1.0 - decay

    def step(m, row):
        new = keep * m + take * row
        return new, new

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]
