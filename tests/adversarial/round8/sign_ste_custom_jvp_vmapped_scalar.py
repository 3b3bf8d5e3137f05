"""sign_ste: a scalar quantizer with a ``jax.custom_jvp`` rule (``defjvp``, tangent passed
through) mapped over the entries with ``jax.vmap``; the value from comparisons cast to x's dtype.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def _sign1(s):
    return (s > 0).astype(s.dtype) - (s < 0).astype(s.dtype)


@_sign1.defjvp
def _sign1_jvp(primals, tangents):
    (s,), (ds,) = primals, tangents
    return _sign1(s), ds


def ste_quantize(x):
    return jax.vmap(_sign1)(x)
