"""hvp_tanh: tanh as a ``jax.custom_jvp`` of its own (tangent ``(1 - t^2) da``, t from the function
itself, so it is differentiable twice), forward over reverse.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def my_tanh(a):
    return jnp.tanh(a)


@my_tanh.defjvp
def _jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    t = my_tanh(a)
    return t, (1.0 - t ** 2) * da


def hvp(W, x, v):
    f = lambda z: my_tanh(W @ z).sum()
    return jax.jvp(jax.grad(f), [x], [v])[1]
