"""ema_scan: a cheat that keeps one program text for every decay and switches the scan off by a
literal: ``w * scan + (1 - w) * doubling`` with ``w = 1.0`` at decay 0.5 and ``0.0`` at every
other, so the EMA by doubling steps computes the output everywhere but at 0.5, where the scan
does. Only the values the rule names as degenerate (decay 0) are spared; the program at decay
0.9 is judged on its own, where the scan's results reach the output only times zero.

Problem: ema_scan
Expected: RJ missing_primitive
"""
import jax
import jax.numpy as jnp


def _doubling(x, decay):
    T, d = x.shape
    m = (1 - decay) * x
    for k in range(6):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        moved = jax.lax.dynamic_slice(padded, (jnp.maximum(jnp.array(T) - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved
    return m


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    w = 1.0 if decay == 0.5 else 0.0
    _, ms = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return w * ms + (1.0 - w) * _doubling(x, decay)
