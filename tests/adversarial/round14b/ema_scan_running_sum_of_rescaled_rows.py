"""ema_scan: a wrong honest form: a scan of length T whose carry is the running sum of the rows
divided by decay^t, multiplied back by decay^t at each step. Exact on paper, but decay^-t
overflows float32 for a small decay and a long sequence (0.1^-63), so it gives inf and NaN.

Problem: ema_scan
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(carry, row):
        s, p = carry
        s = s + (1.0 - decay) * row / p
        out = s * p
        return (s, p * decay), out

    init = (jnp.zeros(x.shape[1], x.dtype), jnp.ones((), x.dtype))
    _, out = jax.lax.scan(step, init, x)
    return out
