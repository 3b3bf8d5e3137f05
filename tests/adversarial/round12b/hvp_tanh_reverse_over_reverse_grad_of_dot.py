"""hvp_tanh: reverse over reverse, the gradient of ``<grad f(x), v>`` with respect to x, f
written with ``jnp.einsum('md,d->m', W, x)`` and ``jax.nn``-free tanh by ``lax.tanh``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def f(W, x):
    return lax.tanh(jnp.einsum("md,d->m", W, x)).sum()


def hvp(W, x, v):
    g = jax.grad(f, argnums=1)
    return jax.grad(lambda z: jnp.dot(g(W, z), v))(x)
