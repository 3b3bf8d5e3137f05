import jax
import jax.numpy as jnp


def ema(x, decay):
    # works on x.T, shape (d, T), scanning over its last axis
    xt = x.T

    def step(m, col):
        m = decay * m + (1 - decay) * col
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros(xt.shape[0], jnp.float32), jnp.moveaxis(xt, -1, 0))
    return out
