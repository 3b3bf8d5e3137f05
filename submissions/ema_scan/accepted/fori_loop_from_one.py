"""The first row set before the loop, then lax.fori_loop(1, T, ...) writing each row with
.at[t].set: a recurrence over T - 1 steps."""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    out = jnp.zeros_like(x).at[0].set((1 - decay) * x[0])

    def body(t, carry):
        m, out = carry
        m = decay * m + (1 - decay) * x[t]
        return m, out.at[t].set(m)

    return jax.lax.fori_loop(1, T, body, (out[0], out))[1]
