"""An EMA by parallel prefix (twelve doubling steps, written out: no scan, no forbidden
primitive, nothing that grows with T, no value above 2 T d), and a lax.scan computing the EMA
whose result is handed to a call that ignores it (a lax.cond whose branches both return the other operand). The output never depends on the
scan.

Expected verdict: rejected (no scan computes the output).
"""
import jax
import jax.numpy as jnp


def _doubling(x, decay):
    T, d = x.shape
    m = (1 - decay) * x
    for k in range(12):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        moved = jax.lax.dynamic_slice(padded, (max(T - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved
    return m


def _scan(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m
    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]


def ema(x, decay):
    closed, scanned = _doubling(x, decay), _scan(x, decay)
    return jax.lax.cond(x[0, 0] > 0, lambda a, b: a, lambda a, b: a + 0.0, closed, scanned)
