"""sign_ste: x cast to float32, the straight-through construction done there
(``x32 - sg(x32) + sg(sign(x32))``), the result cast back to ``x.dtype``; the casts are linear
so tangent and cotangent pass through exactly.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ste_quantize(x):
    x32 = x.astype(jnp.float32)
    sg = jax.lax.stop_gradient
    out = (x32 - sg(x32)) + sg(jnp.sign(x32))
    return out.astype(x.dtype)
