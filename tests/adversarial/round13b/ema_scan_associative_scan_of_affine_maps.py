"""ema_scan: the recurrence as a composition of affine maps ``m -> a m + b`` combined by
``jax.lax.associative_scan``, the parallel-prefix form a student may know from linear RNNs. The
statement asks for a scan (or loop) of length T; ``associative_scan`` slices the time axis by
its length, which is the symbol T when the judge traces, so it cannot be traced there.

Problem: ema_scan
Expected: RJ dim_read_as_number
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

    _, m = jax.lax.associative_scan(combine, (a, b))
    return m
