"""sign_ste: ported from PyTorch's ``x - x.detach() + x.sign().detach()``: a ``detach`` helper
for ``jax.lax.stop_gradient`` and a ``Tensor``-like namespace class of static methods.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def detach(t):
    return jax.lax.stop_gradient(t)


class T:
    sign = staticmethod(jnp.sign)
    detach = staticmethod(detach)


def ste_quantize(x):
    return x - T.detach(x) + T.detach(T.sign(x))
