"""sign_ste: honest code: the sign written with nested ``jnp.where``s inside a ``custom_jvp``,
its tangent rule choosing with ``jax.lax.cond`` on a Python bool (always the identity here) and
lambdas.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

IDENTITY_GRADIENT = True


@jax.custom_jvp
def hard_sign(v):
    one = jnp.ones_like(v)
    return jnp.where(v > 0, one, jnp.where(v < 0, -one, jnp.zeros_like(v)))


@hard_sign.defjvp
def _jvp(primals, tangents):
    (v,), (t,) = primals, tangents
    out_t = jax.lax.cond(IDENTITY_GRADIENT, lambda u: u, lambda u: jnp.zeros_like(u), t)
    return hard_sign(v), out_t


def ste_quantize(x):
    return hard_sign(x)
