"""hvp_tanh: f wrapped in ``jax.checkpoint`` (the student saves memory on the first
derivative), H v as ``jax.grad`` of the dot product of ``jax.grad(f, argnums=1)`` with v.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def f(W, z):
    return jnp.sum(jnp.tanh(W @ z))


def hvp(W, x, v):
    return jax.grad(lambda z: jnp.dot(jax.grad(f, argnums=1)(W, z), v))(x)
