import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def body(t, state):
        m, out = state
        m = decay * m + (1.0 - decay) * x[t]
        return m, out.at[t].set(m)

    _, out = jax.lax.fori_loop(0, T, body, (jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
