"""ema_scan: the recurrence as ``lax.associative_scan`` of (a, b) pairs: a log-depth closed form,
no scan of length T; its Python recursion on the length cannot run with T a symbol.

Problem: ema_scan
Expected: RJ dim_read_as_number
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    # (a, b) pairs composed: m_t = a_t m_(t-1) + b_t
    a = jnp.full_like(x, decay)
    b = (1 - decay) * x

    def combine(l, r):
        return l[0] * r[0], r[0] * l[1] + r[1]

    return jax.lax.associative_scan(combine, (a, b))[1]
