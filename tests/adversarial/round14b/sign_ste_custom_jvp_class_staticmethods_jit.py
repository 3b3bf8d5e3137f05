"""sign_ste: a ``SignSTE`` class whose static methods are a ``custom_jvp`` function and its JVP
rule (the tangent returned unchanged), the entry point under ``jax.jit``; the sign as
``jnp.sign`` in x's dtype.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class SignSTE:
    @staticmethod
    @jax.custom_jvp
    def apply(x):
        return jnp.sign(x)

    @staticmethod
    def jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return SignSTE.apply(x), t


SignSTE.apply.defjvp(SignSTE.jvp)


@jax.jit
def ste_quantize(x):
    return SignSTE.apply(x)
