"""sign_ste: ``jnp.sign(x) + (x - lax.stop_gradient(x))`` under ``jax.jit``: the bracket is
exactly zero, so the value is sign(x) at every magnitude, and its derivative one.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def ste_quantize(x):
    return jnp.sign(x) + (x - lax.stop_gradient(x))
