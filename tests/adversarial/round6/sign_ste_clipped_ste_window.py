"""sign_ste: the "clipped" straight-through estimator of binarized networks with a wide window:
the derivative is 1 for |x| <= 1000 and 0 beyond, right on the examples (|x| <= 7) but not on
inputs of large magnitude, where the statement asks for the identity everywhere.

Problem: sign_ste
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste_quantize(x):
    return jnp.sign(x)


@ste_quantize.defjvp
def _jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    window = (jnp.abs(x) <= 1000).astype(t.dtype)
    return jnp.sign(x), t * window
