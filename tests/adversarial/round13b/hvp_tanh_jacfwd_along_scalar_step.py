"""hvp_tanh: H v as the derivative of the gradient along the line ``x + t v`` at t = 0, taken with
``jax.jacfwd`` of a function of the scalar t (a (d,) result: forward over reverse with one
tangent).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda z: jnp.sum(jnp.tanh(W @ z))
    along = lambda t: jax.grad(f)(x + t * v)
    return jax.jacfwd(along)(jnp.float32(0.0))
