"""sign_ste: honest code: a ``custom_jvp`` sign whose tangent rule passes the tangent, under a
``functools.partial(jax.jit, static_argnames=...)`` helper that takes the dtype as a static
argument, values cast with ``jnp.asarray(..., dtype=...)``.

Problem: sign_ste
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@jax.custom_jvp
def _sign(v):
    return jnp.sign(v)


@_sign.defjvp
def _sign_jvp(primals, tangents):
    (v,), (t,) = primals, tangents
    return _sign(v), t


@functools.partial(jax.jit, static_argnames=("dtype",))
def _quantize(v, dtype):
    return jnp.asarray(_sign(jnp.asarray(v, dtype=dtype)), dtype=dtype)


def ste_quantize(x):
    return _quantize(x, dtype=x.dtype)
