"""sign_ste: the value as x / |x| where x != 0 (a double ``jnp.where`` so that 0 / 0 is never
taken), exact for every normal number in every dtype, and the straight-through derivative from
(x - stop_gradient(x)) added after.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ste_quantize(x):
    nz = x != 0
    safe = jnp.where(nz, x, jnp.ones_like(x))
    value = jnp.where(nz, safe / jnp.abs(safe), jnp.zeros_like(x))
    return lax.stop_gradient(value) + (x - lax.stop_gradient(x))
