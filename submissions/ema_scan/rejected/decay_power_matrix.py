# the T x T lower-triangular matrix of decay powers times x
import jax.numpy as jnp


def ema(x, decay):
    t = jnp.arange(x.shape[0])
    diff = t[:, None] - t[None, :]
    L = jnp.where(diff >= 0, (1 - decay) * jnp.power(decay, jnp.maximum(diff, 0)), 0.0)
    return L @ x
