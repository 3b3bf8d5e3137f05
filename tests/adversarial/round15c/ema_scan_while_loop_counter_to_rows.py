"""ema_scan: a ``jax.lax.while_loop`` whose counter goes from 0 to ``x.shape[0]`` by one, the
carry ``(i, mean, out)`` with the output written by ``out.at[i].set``; ``cond`` and ``body``
as named inner functions.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def cond(state):
        return state[0] < T

    def body(state):
        i, mean, out = state
        mean = decay * mean + (1 - decay) * x[i]
        return i + 1, mean, out.at[i].set(mean)

    _, _, out = jax.lax.while_loop(cond, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
