"""sign_ste: ``from __future__ import annotations``, a module-level ``jax.custom_jvp`` whose
tangent rule is attached with ``defjvps`` as a lambda returning the tangent, the value
``jnp.sign(x).astype(x.dtype)``.

Problem: sign_ste
Expected: AC
Cases: all
"""
from __future__ import annotations

import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste_quantize(x: jax.Array) -> jax.Array:
    return jnp.sign(x).astype(x.dtype)


ste_quantize.defjvps(lambda t, ans, x: t)
