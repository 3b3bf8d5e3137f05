"""Plain jnp.sign: right values, but its derivative is zero everywhere, not the identity.

Expected: wrong answer (wrong_vjp: the VJP probe gets zeros back).
"""
import jax.numpy as jnp


def ste_quantize(x):
    return jnp.sign(x)
