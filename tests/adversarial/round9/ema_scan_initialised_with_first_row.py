"""ema_scan: a plausible wrong answer: the average started at the first row (m_0 = x_0, as
some libraries initialise an EMA) instead of from zero, in an otherwise honest scan.

Problem: ema_scan
Expected: WA
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    _, rest = jax.lax.scan(step, x[0], x[1:])
    return jnp.concatenate([x[:1], rest], axis=0)
