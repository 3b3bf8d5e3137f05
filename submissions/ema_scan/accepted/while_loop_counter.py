import jax
import jax.numpy as jnp


def ema(x, decay):
    def cond(state):
        return state[0] < x.shape[0]

    def body(state):
        t, m, out = state
        m = decay * m + (1 - decay) * x[t]
        return t + 1, m, out.at[t].set(m)

    _, _, out = jax.lax.while_loop(cond, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
