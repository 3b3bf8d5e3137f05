"""sign_ste: the sign written as ``jnp.where(x > 0, 1, jnp.where(x < 0, -1, 0))`` on Python
scalars and cast back with ``.astype(x.dtype)``, inside a ``custom_jvp`` whose ``defjvp`` rule
returns the tangent cast to the output's dtype.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def _sign(x):
    return jnp.where(x > 0, 1, jnp.where(x < 0, -1, 0)).astype(x.dtype)


@_sign.defjvp
def _sign_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    out = _sign(x)
    return out, t.astype(out.dtype)


def ste_quantize(x):
    return _sign(x)
