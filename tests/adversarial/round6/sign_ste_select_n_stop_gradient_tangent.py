"""sign_ste: the three values chosen with ``lax.select_n`` on an index computed from the two
comparisons, and the identity derivative added as x - stop_gradient(x) under a jitted helper.

Problem: sign_ste
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def _three_way(x):
    which = (x > 0).astype(jnp.int32) + 2 * (x < 0).astype(jnp.int32)
    zero = jnp.zeros_like(x)
    one = jnp.ones_like(x)
    return lax.select_n(which, zero, one, -one)


def ste_quantize(x):
    return _three_way(x) + (x - lax.stop_gradient(x))
