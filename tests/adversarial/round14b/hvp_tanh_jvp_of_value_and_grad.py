"""hvp_tanh: forward over reverse through ``jax.value_and_grad``: the tangent of its output pair
taken with ``jax.jvp``, the gradient's tangent kept (the value's thrown away).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda x: jnp.sum(jnp.tanh(jnp.matmul(W, x)))
    _, (_, hv) = jax.jvp(jax.value_and_grad(f), (x,), (v,))
    return hv
