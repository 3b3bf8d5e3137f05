"""sign_ste: the value as round(clip(x * finfo(dtype).max, -1, 1)): any nonzero normal number times
the largest finite value is at least about 4 in size (or overflows to inf), so the clip gives +-1
and zeros stay zero; in x's dtype, for float16 and bfloat16 as for float32. The identity
derivative from x - stop_gradient(x).

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ste_quantize(x):
    big = jnp.asarray(jnp.finfo(x.dtype).max, x.dtype)
    value = jnp.round(jnp.clip(x * big, -1, 1))
    return lax.stop_gradient(value) + (x - lax.stop_gradient(x))
