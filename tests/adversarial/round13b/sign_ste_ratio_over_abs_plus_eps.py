"""sign_ste: the sign as ``x / (|x| + eps)`` with ``eps = 1e-12`` (the usual guard against 0 / 0)
under ``stop_gradient``, plus the identity's zero: for tiny normal inputs (1e-30) the ratio is
far from 1, and values must match exactly.

Problem: sign_ste
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def ste_quantize(x):
    s = x / (jnp.abs(x) + 1e-12)
    return (x - jax.lax.stop_gradient(x)) + jax.lax.stop_gradient(s)
