"""sign_ste: a ``custom_jvp`` whose primal calls a ``jax.jit(..., inline=True)`` helper inside
``jax.named_scope``, the rule attached with ``defjvps`` of a lambda returning the tangent.

Problem: sign_ste
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, inline=True)
def _sign_impl(x):
    with jax.named_scope("sign"):
        return jnp.sign(x)


@jax.custom_jvp
def ste_quantize(x):
    return _sign_impl(x)


ste_quantize.defjvps(lambda t, ans, x: t)
