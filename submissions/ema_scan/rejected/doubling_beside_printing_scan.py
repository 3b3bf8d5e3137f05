"""An EMA by parallel prefix (twelve doubling steps, written out: no scan, no forbidden
primitive, nothing that grows with T, no value above 2 T d) and, beside it, a lax.scan whose
result is thrown away but whose step prints an empty string with jax.debug.print. The scan
computes nothing the output depends on; it is only there to be found.

Expected verdict: rejected (no scan computes the output).
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T, d = x.shape

    def step(m, row):
        jax.debug.print("")
        return m, None

    jax.lax.scan(step, jnp.zeros_like(x[0]), x)

    m = (1 - decay) * x
    for k in range(12):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        moved = jax.lax.dynamic_slice(padded, (max(T - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved
    return m
