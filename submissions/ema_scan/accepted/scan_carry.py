import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    _, averages = jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), x)
    return averages
