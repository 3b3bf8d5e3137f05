import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    T = x.shape[0]

    def body(t, state):
        m, out = state
        m = decay * m + (1.0 - decay) * lax.dynamic_index_in_dim(x, t, keepdims=False)
        return m, lax.dynamic_update_index_in_dim(out, m, t, 0)

    _, out = lax.fori_loop(0, T, body, (jnp.zeros(x.shape[1:], x.dtype), jnp.zeros_like(x)))
    return out
