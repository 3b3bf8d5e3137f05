"""sign_ste: a custom_jvp whose rule returns the tangent rounded through float16 "to match the
quantized forward": exact for float16 and for the examples' tangents (small dyadic numbers),
not for float32 tangents that float16 cannot hold.

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
    return jnp.sign(x), t.astype(jnp.float16).astype(t.dtype)
