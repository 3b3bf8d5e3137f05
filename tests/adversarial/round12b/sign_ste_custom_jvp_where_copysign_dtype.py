"""sign_ste: a ``custom_jvp`` whose primal builds the sign by ``jnp.where(x == 0, 0,
jnp.copysign(1, x))`` cast back to ``x.dtype``, its JVP given with ``defjvps`` as a lambda
returning the tangent.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste_quantize(x):
    one = jnp.ones_like(x)
    return jnp.where(x == 0, jnp.zeros_like(x), jnp.copysign(one, x)).astype(x.dtype)


ste_quantize.defjvps(lambda t, ans, x: t)
