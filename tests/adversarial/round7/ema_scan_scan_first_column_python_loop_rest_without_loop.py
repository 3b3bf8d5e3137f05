"""ema_scan: the per-column style cut short: a ``lax.scan`` over the first column in a Python loop
of one trip, and every other column without a loop (a stand-in for a closed form). Loops of the
same length are matched together, but the only loop reaches one column.

Problem: ema_scan
Expected: RJ missing_primitive
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    # the other columns without a loop: a stand-in for a closed form (the primitives one needs,
    # cumsum or a convolution, are forbidden); the rule is read before the values are compared
    conv = (1 - decay) * x
    cols = []
    for j in range(1):  # a scan for the first column only
        step = lambda m, xt: (decay * m + (1 - decay) * xt,) * 2
        _, mj = jax.lax.scan(step, 0.0 * x[0, j], x[:, j])
        cols.append(mj)
    return jnp.concatenate([jnp.stack(cols, axis=1), conv[:, 1:]], axis=1)
