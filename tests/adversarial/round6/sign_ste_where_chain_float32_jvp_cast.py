"""sign_ste: the quantizer as a chain of ``jnp.where`` computed in float32 and cast back to x's
dtype, inside a ``custom_jvp`` whose rule (``defjvp``) returns the tangent cast to the output's
dtype.

Problem: sign_ste
Expected: AC
"""

import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste_quantize(x):
    x32 = x.astype(jnp.float32)
    out = jnp.where(x32 > 0, 1.0, jnp.where(x32 < 0, -1.0, 0.0))
    return out.astype(x.dtype)


@ste_quantize.defjvp
def _ste_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    y = ste_quantize(x)
    return y, t.astype(y.dtype)
