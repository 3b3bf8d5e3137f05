"""ema_scan: a cheat: the averages from ``jax.lax.associative_scan`` over the affine maps
``(a_t, b_t) = (decay, (1 - decay) x_t)`` along the rows (a closed form of log T depth), beside
a ``lax.scan`` that runs the recurrence on the first column only.

Problem: ema_scan
Expected: RJ
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    a = jnp.full_like(x, decay)
    b = (1.0 - decay) * x

    def combine(left, right):
        a1, b1 = left
        a2, b2 = right
        return a1 * a2, a2 * b1 + b2

    _, m = jax.lax.associative_scan(combine, (a, b), axis=0)

    def step(c, row):
        c = decay * c + (1.0 - decay) * row
        return c, c

    _, first = jax.lax.scan(step, jnp.zeros((), x.dtype), x[:, 0])
    return m.at[:, 0].set(first)
