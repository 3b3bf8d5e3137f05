"""hvp_tanh: tanh written as a ``jax.custom_jvp`` whose tangent rule is ``(1 - y^2) t`` (y its
own output, so the rule differentiates again through it), and H v as ``jax.jvp`` of
``jax.grad``: forward over reverse through a custom rule.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def my_tanh(u):
    return jnp.tanh(u)


@my_tanh.defjvp
def _my_tanh_jvp(primals, tangents):
    (u,), (t,) = primals, tangents
    y = my_tanh(u)
    return y, (1.0 - y * y) * t


def hvp(W, x, v):
    f = lambda z: jnp.sum(my_tanh(W @ z))
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
