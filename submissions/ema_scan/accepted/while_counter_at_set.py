import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    def cond(s):
        return s[0] < x.shape[0]

    def body(s):
        t, m, out = s
        m = decay * m + (1 - decay) * x[t]
        return t + 1, m, out.at[t].set(m)

    return lax.while_loop(cond, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))[2]
