"""hvp_tanh: reverse over reverse, ``jax.grad`` of ``jnp.vdot(grad_f(z), v)``; ``f`` and its
gradient are lambdas assigned to names, the sum of ``jax.nn``-free ``jnp.tanh`` written with
``.sum()``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda z: jnp.tanh(W @ z).sum()
    grad_f = jax.grad(f)
    directional = lambda z: jnp.vdot(grad_f(z), v)
    return jax.grad(directional)(x)
