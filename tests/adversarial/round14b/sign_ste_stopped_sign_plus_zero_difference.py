"""sign_ste: ``stop_gradient(sign(x)) + (x - stop_gradient(x))``: the second term is exactly zero
in every dtype (x minus itself), so the values are the sign, and its derivative is the
identity in both modes.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

sg = jax.lax.stop_gradient


def ste_quantize(x):
    return sg(jnp.sign(x)) + (x - sg(x))
