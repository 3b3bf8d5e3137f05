import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        return decay * m + (1 - decay) * row, m     # emits the average before the update

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]
