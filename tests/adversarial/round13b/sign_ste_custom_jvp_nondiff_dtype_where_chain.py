"""sign_ste: a ``custom_jvp`` with the output dtype as a ``nondiff_argnums`` argument, the
three values by ``jnp.where`` chains cast to that dtype, the rule passing the tangent through;
wrapped in ``jax.jit`` with ``static_argnames``.

Problem: sign_ste
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_jvp, nondiff_argnums=(1,))
def _sign(x, dtype):
    return jnp.where(x > 0, 1, jnp.where(x < 0, -1, 0)).astype(dtype)


@_sign.defjvp
def _sign_jvp(dtype, primals, tangents):
    (x,), (t,) = primals, tangents
    return _sign(x, dtype), t


@partial(jax.jit, static_argnames=("mode",))
def _quantize(x, mode="ternary"):
    assert mode == "ternary"
    return _sign(x, x.dtype)


def ste_quantize(x):
    return _quantize(x)
