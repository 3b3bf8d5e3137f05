"""ema_scan: a causal ``lax.conv_general_dilated`` with 64 decay taps for every row, and a scan
over the first row alone for the rule.

Problem: ema_scan
Expected: RJ missing_primitive
"""
import jax
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    # the first row by a scan, every row from a causal convolution with 64 decay taps
    taps = (1 - decay) * decay ** jnp.arange(63, -1, -1, dtype=jnp.float32)
    lhs = x.T[:, None, :]                        # (d, 1, T): one channel per column
    rhs = taps[None, None, :]                    # (1, 1, 64)
    conv = lax.conv_general_dilated(lhs, rhs, (1,), [(63, 0)])[:, 0, :].T
    step = lambda m, r: ((decay * m + (1 - decay) * r),) * 2
    _, first = jax.lax.scan(step, jnp.zeros_like(x[0]), x[:1])
    return jnp.concatenate([first, conv[1:]], axis=0)
