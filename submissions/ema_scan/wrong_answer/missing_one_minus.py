import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + row                            # forgets the (1 - decay) weight
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]
