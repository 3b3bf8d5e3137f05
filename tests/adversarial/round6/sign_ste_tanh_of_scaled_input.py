"""sign_ste: a saturating tanh(x * 1e38) for the value (1 for any normal float32 above 1e-38)
with the identity derivative via stop_gradient; in float16 the constant is inf, so a zero
entry gives tanh(0 * inf) = NaN, and in bfloat16 the smallest normals do not saturate.

Problem: sign_ste
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def ste_quantize(x):
    value = jnp.tanh(x * jnp.asarray(1e38, x.dtype))
    return jax.lax.stop_gradient(value) + (x - jax.lax.stop_gradient(x))
