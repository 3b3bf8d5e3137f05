"""ema_scan: ``lax.scan(..., reverse=True)`` over the rows flipped, its results flipped back: the
forward recurrence, stepped from the last index down.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, xt):
        m = decay * m + (1 - decay) * xt
        return m, m

    # a reverse scan over the reversed rows is the forward scan
    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), jnp.flip(x, 0), reverse=True)
    return jnp.flip(out, 0)
