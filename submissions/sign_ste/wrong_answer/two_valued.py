"""A two-valued quantizer: where(x > 0, 1, -1) sends 0 to -1, but sign(0) is 0.

Expected: wrong answer (wrong_value on any case containing 0.0 or -0.0).
"""
import jax
import jax.numpy as jnp


def ste_quantize(x):
    q = jnp.where(x > 0, 1, -1).astype(x.dtype)
    return x - jax.lax.stop_gradient(x) + jax.lax.stop_gradient(q)
