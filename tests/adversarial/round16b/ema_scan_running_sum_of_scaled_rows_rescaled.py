"""ema_scan: a near miss: a closed form run as a scan: the carry is the running sum of
``x_k * decay**-k`` and each output that sum times ``(1 - decay) * decay**t``; exact on paper,
but ``decay**-k`` overflows float32 for a small decay over many rows (0.1**-64), and the output
is NaN there.

Problem: ema_scan
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(carry, row):
        acc, power = carry
        acc = acc + row / power
        out = (1.0 - decay) * power * acc
        return (acc, power * decay), out

    init = (jnp.zeros(x.shape[1], jnp.float32), jnp.float32(1.0))
    return jax.lax.scan(step, init, x)[1]
