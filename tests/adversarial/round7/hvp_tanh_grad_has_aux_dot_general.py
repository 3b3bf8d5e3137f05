"""hvp_tanh: ``W @ x`` by ``lax.dot_general``, the gradient from ``jax.grad(..., has_aux=True)``
and H v as the gradient of its ``vdot`` with v.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def hvp(W, x, v):
    def f(z):
        a = lax.dot_general(W, z, (((1,), (0,)), ((), ())))
        return jnp.sum(jnp.tanh(a)), a

    def gv(z):
        g, _ = jax.grad(f, has_aux=True)(z)
        return jnp.vdot(g, v)

    return jax.grad(gv)(x)
