"""sign_ste: a wrong honest form, ``sg(sign(x)) + x - sg(x)`` evaluated left to right: sign(x) + x
rounds to x for inputs of large magnitude (float16's 2048, float32's 1e8), and subtracting x
then gives 0 instead of the sign.

Problem: sign_ste
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp

sg = jax.lax.stop_gradient


def ste_quantize(x):
    return sg(jnp.sign(x)) + x - sg(x)
