"""sign_ste: ``(x - stop_gradient(x)) + stop_gradient(sign(x))``: the first difference is
exactly zero, so the value is sign(x) in every dtype and magnitude, and the derivative is one.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax.lax import stop_gradient


def ste_quantize(x):
    zero = x - stop_gradient(x)
    return zero + stop_gradient(jnp.sign(x))
