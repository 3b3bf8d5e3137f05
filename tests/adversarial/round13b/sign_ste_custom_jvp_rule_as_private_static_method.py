"""sign_ste: the ``custom_jvp`` and its tangent rule as static methods of a namespace class, the
rule a private one attached through the class's name (``Quantizers._sign_jvp``).

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class Quantizers:
    @staticmethod
    @jax.custom_jvp
    def sign(x):
        return jnp.sign(x)

    @staticmethod
    def _sign_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return Quantizers.sign(x), t


Quantizers.sign.defjvp(Quantizers._sign_jvp)


def ste_quantize(x):
    return Quantizers.sign(x)
