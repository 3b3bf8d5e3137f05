"""ema_scan: two ``lax.scan`` of length T over the first column, averaged into it, and every
other column without a loop (a stand-in for a closed form). Two loops of the same length reach
more together than one only where they reach other elements: both reach the first column.

Problem: ema_scan
Expected: RJ missing_primitive
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    # the other columns without a loop: a stand-in for a closed form (the primitives one needs,
    # cumsum or a convolution, are forbidden); the rule is read before the values are compared
    conv = (1 - decay) * x
    step = lambda m, xt: (decay * m + (1 - decay) * xt,) * 2
    _, a = jax.lax.scan(step, 0.0 * x[0, 0], x[:, 0])
    _, b = jax.lax.scan(step, 0.0 * x[0, 0], 1.0 * x[:, 0])
    return jnp.concatenate([((a + b) / 2)[:, None], conv[:, 1:]], axis=1)
