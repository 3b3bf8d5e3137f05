"""sign_ste: the value as ``jnp.copysign(1, x)`` zeroed where x == 0 (copysign alone gives -1
for -0.0), in x's dtype, and the identity derivative from a ``custom_jvp`` declared with
``defjvps`` on a module-level function applied through ``jax.jit``.

Problem: sign_ste
Expected: AC
"""

import jax
import jax.numpy as jnp


def _sign(x):
    one = jnp.ones_like(x)
    return jnp.where(x == 0, jnp.zeros_like(x), jnp.copysign(one, x))


_ste = jax.custom_jvp(_sign)
_ste.defjvps(lambda tangent, out, x: tangent)


@jax.jit
def ste_quantize(x):
    return _ste(x)
