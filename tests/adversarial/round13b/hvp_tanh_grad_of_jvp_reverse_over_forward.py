"""hvp_tanh: reverse over forward: the directional derivative ``x -> jvp(f, (x,), (v,))[1]``
(the gradient's dot product with v) differentiated with ``jax.grad``; H is symmetric, so this is
H v.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(z):
        return jnp.sum(jnp.tanh(W @ z))

    def directional(z):
        return jax.jvp(f, (z,), (v,))[1]

    return jax.grad(directional)(x)
