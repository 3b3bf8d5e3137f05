"""hvp_tanh: one unit's Hessian-vector product by reverse over reverse, ``jax.vmap``-ed over
the rows of W and summed over the units.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _unit_hvp(w, x, v):
    g = jax.grad(lambda z: jnp.tanh(w @ z))
    return jax.grad(lambda z: g(z) @ v)(x)


def hvp(W, x, v):
    return jax.vmap(_unit_hvp, in_axes=(0, None, None))(W, x, v).sum(axis=0)
