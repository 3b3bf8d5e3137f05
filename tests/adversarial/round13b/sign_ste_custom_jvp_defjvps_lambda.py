"""sign_ste: a ``jax.custom_jvp`` around ``jnp.sign`` whose tangent rule is attached with
``defjvps(lambda t, ans, x: t)``; the reverse mode comes from JAX transposing that rule.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste_quantize(x):
    return jnp.sign(x)


ste_quantize.defjvps(lambda t, ans, x: t)
