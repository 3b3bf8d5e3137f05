"""Reference solution for sign_ste: sign in the forward pass, identity derivative.

(x - stop_gradient(x)) is exactly 0 for finite x and has derivative 1, so adding the sign after
it keeps the sign exact even where x is huge; x + stop_gradient(sign(x) - x) would cancel.
"""

import jax
import jax.numpy as jnp


def ste_quantize(x):
    return (x - jax.lax.stop_gradient(x)) + jax.lax.stop_gradient(jnp.sign(x))
