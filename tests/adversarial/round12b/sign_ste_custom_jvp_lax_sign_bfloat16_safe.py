"""sign_ste: a ``custom_jvp`` whose primal is ``lax.sign`` and whose rule, registered with the
decorator, passes the tangent with ``lax.convert_element_type`` to the output's dtype.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
from jax import lax


@jax.custom_jvp
def ste_quantize(x):
    return lax.sign(x)


@ste_quantize.defjvp
def ste_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    y = ste_quantize(x)
    return y, lax.convert_element_type(dx, y.dtype)
