"""sign_ste: a near miss: the tangent rule multiplies by ``x != 0`` (a student thinking the
gradient should vanish where the output does): right values, but the identity fails at 0.

Problem: sign_ste
Expected: WA
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste(x):
    return jnp.sign(x)


ste.defjvps(lambda t, ans, x: t * (x != 0).astype(t.dtype))


def ste_quantize(x):
    return ste(x)
