"""sign_ste: ``jax.custom_jvp`` with ``defjvps`` passing the tangent through, the value from
``lax.sign``; reverse mode comes from JAX transposing the identity tangent map.

Problem: sign_ste
Expected: AC
"""

import jax
from jax import lax


@jax.custom_jvp
def ste_quantize(x):
    return lax.sign(x)


ste_quantize.defjvps(lambda t, ans, x: t)
