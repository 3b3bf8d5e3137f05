"""sign_ste: a scalar ``custom_jvp`` whose tangent rule is given by ``defjvps`` (the tangent
returned as it is), spread over x with ``jnp.vectorize``.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def sign1(e):
    return jnp.sign(e)


sign1.defjvps(lambda t, ans, e: t)


def ste_quantize(x):
    return jnp.vectorize(sign1)(x)
