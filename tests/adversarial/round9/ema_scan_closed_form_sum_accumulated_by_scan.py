"""ema_scan: a cheat: the closed form m_t = (1 - decay) sum_k decay^(t-k) x_k, its sum of
decay^(-k) x_k accumulated by a ``lax.scan`` of length T whose carry only adds the rows (a
cumulative sum written as a scan), then multiplied by decay^t outside the loop. At decay 0 the
powers are the constants (1, 0, 0, ...): the carry reaches the first row only, the others are
no recurrence's (and NaN, 0 times an infinite power).

Problem: ema_scan
Expected: RJ
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    T = x.shape[0]
    t = jnp.arange(T, dtype=jnp.float32)[:, None]
    inv = jnp.float32(decay) ** -t

    def step(acc, row):
        acc = acc + row
        return acc, acc

    _, sums = lax.scan(step, jnp.zeros_like(x[0]), inv * x)
    return (1.0 - decay) * jnp.float32(decay) ** t * sums
