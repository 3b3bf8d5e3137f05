import jax
import jax.numpy as jnp


def ema_1d(column, decay):
    def step(m, value):
        m = decay * m + (1.0 - decay) * value
        return m, m

    return jax.lax.scan(step, jnp.float32(0.0), column)[1]


def ema(x, decay):
    # one scan over time per column, vmapped over the d columns
    return jax.vmap(ema_1d, in_axes=(1, None), out_axes=1)(x, decay)
