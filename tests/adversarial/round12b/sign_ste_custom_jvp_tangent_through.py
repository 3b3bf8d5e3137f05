"""sign_ste: a ``jax.custom_jvp`` whose primal is ``jnp.sign(x)`` and whose JVP rule returns the
tangent as it is (reverse mode by JAX's transpose of that linear rule).

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def ste_quantize(x):
    return jnp.sign(x)


@ste_quantize.defjvp
def _ste_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return ste_quantize(x), t
