"""sign_ste: ``jax.vmap`` over the entries of a ``lax.cond`` on the entry's sign picking a
``custom_jvp`` constant (+1 or -1, the tangent passed through) and a zero where the entry is 0
by a ``jnp.where``; the identity derivative in every branch.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.custom_jvp
def level(v, sign):
    return jnp.where(v == 0, jnp.zeros_like(v), sign * jnp.ones_like(v))


@level.defjvp
def _level_jvp(primals, tangents):
    v, sign = primals
    return level(v, sign), tangents[0]


def ste_quantize(x):
    one = jnp.ones((), x.dtype)
    return jax.vmap(lambda v: lax.cond(v > 0, lambda v: level(v, one), lambda v: level(v, -one), v))(x)
