"""sign_ste: a ``custom_jvp`` whose primal is a nested ``jnp.where`` on comparisons with Python
literals 1, -1 and 0 (weak types, so the result stays in x's dtype, float16 and bfloat16
included), its JVP rule written with ``defjvps``.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def three_level(x):
    return jnp.where(x > 0, 1, jnp.where(x < 0, -1, 0)).astype(x.dtype)


three_level.defjvps(lambda t, ans, x: t)


def ste_quantize(x):
    return three_level(x)
