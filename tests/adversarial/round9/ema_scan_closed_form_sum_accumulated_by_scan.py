"""ema_scan: the closed form m_t = (1 - decay) sum_k decay^(t-k) x_k, its sum of decay^(-k) x_k
accumulated by a ``lax.scan`` of length T whose carry only adds the rows (a cumulative sum
written as a scan), then multiplied by decay^t outside the loop. At every decay above 0 the
running sums are a full recurrence the output shows, which the rule accepts (they run the
honest scan's work). At decay 0, which the rule spares (``degenerate: {decay: [0]}``: the
average is x itself), the powers are 0 to a negative power, infinite, and the output is NaN
where it should be x: a wrong answer, graded by the values.

Problem: ema_scan
Expected: WA
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
