import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = (1 - decay) * m + decay * row
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]
