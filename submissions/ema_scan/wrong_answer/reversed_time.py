import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x, reverse=True)[1]
