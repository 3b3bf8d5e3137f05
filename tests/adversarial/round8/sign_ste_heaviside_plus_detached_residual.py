"""sign_ste: the three values as 2 * heaviside(x, 1/2) - 1 (heaviside gives 1/2 at both zeros,
so they map to 0), in x's dtype, and the identity derivative added as x - stop_gradient(x),
which is exactly zero in every dtype.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ste_quantize(x):
    half = jnp.asarray(0.5, x.dtype)
    value = 2 * jnp.heaviside(x, half) - 1
    return value.astype(x.dtype) + (x - lax.stop_gradient(x))
