"""ema_scan: d is the case's number: one ``lax.scan`` of length T per column in a Python loop over
the d columns, stacked. Every element of the output comes from its own element of a recurrent
carry, but each loop reaches only its own column, and the rule measures each loop alone.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    # d is a number here: one scan per column, stacked
    cols = []
    for j in range(x.shape[1]):
        step = lambda m, xt: (decay * m + (1 - decay) * xt,) * 2
        _, mj = jax.lax.scan(step, 0.0 * x[0, j], x[:, j])
        cols.append(mj)
    return jnp.stack(cols, axis=1)
