"""sign_ste: the three values chosen with ``lax.select_n`` on an index ``(x > 0) + 2 * (x < 0)``
(0 for zeros, 1 for positives, 2 for negatives), stopped, plus the exact zero
``x - stop_gradient(x)`` in front.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def ste_quantize(x):
    index = (x > 0).astype(jnp.int32) + 2 * (x < 0).astype(jnp.int32)
    zero, one = jnp.zeros_like(x), jnp.ones_like(x)
    s = lax.select_n(index, zero, one, -one)
    return (x - lax.stop_gradient(x)) + lax.stop_gradient(s)
