"""lax.while_loop with t < T in its condition, the running average and the output buffer
carried: a recurrence over the T rows."""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def cond(c):
        return c[0] < T

    def body(c):
        t, m, out = c
        m = decay * m + (1 - decay) * x[t]
        return t + 1, m, out.at[t].set(m)

    return jax.lax.while_loop(cond, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))[2]
