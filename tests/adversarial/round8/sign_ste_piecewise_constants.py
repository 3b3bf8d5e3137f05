"""sign_ste: ``jnp.piecewise`` with the conditions x < 0 and x > 0 and the constants -1 and 1 (the
rest, both zeros, left 0), and a ``jax.custom_jvp`` around it passing the tangent through.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste_quantize(x):
    return jnp.piecewise(x, [x < 0, x > 0], [-1, 1])


@ste_quantize.defjvp
def _ste_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return ste_quantize(x), t
