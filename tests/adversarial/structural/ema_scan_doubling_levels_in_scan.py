"""An EMA by parallel prefix (Hillis-Steele doubling): a lax.scan over twelve doubling levels,
each adding the running sums shifted by 2^k rows, scaled by decay^(2^k). The scan is live and
computes the answer, the program does not grow with T (twelve levels cover T <= 4096), no
value is larger than 2 T d and no forbidden primitive appears; but the recurrence over time
never runs in a scan, which is what the problem asks for.

Expected verdict: rejected (the scan does not run over the time steps).
"""
import jax
import jax.numpy as jnp

LEVELS = 12


def ema(x, decay):
    T, d = x.shape

    def level(carry, _):
        m, shift, scale = carry
        padded = jnp.concatenate([jnp.zeros_like(m), m])            # (2T, d)
        start = jnp.maximum(T - shift, 0)
        moved = jax.lax.dynamic_slice(padded, (start, 0), (T, d))   # m shifted down by shift rows
        return (m + scale * moved, 2 * shift, scale * scale), None

    start = ((1 - decay) * x, jnp.int32(1), jnp.float32(decay))
    (m, _, _), _ = jax.lax.scan(level, start, None, length=LEVELS)
    return m
