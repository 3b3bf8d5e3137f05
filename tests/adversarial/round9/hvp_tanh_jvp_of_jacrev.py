"""hvp_tanh: forward over reverse with ``jax.jacrev`` in place of ``jax.grad``: the Jacobian of
the scalar f is its gradient (a pullback of one cotangent), and ``jax.jvp`` of it along v is
H v.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda z: jnp.sum(jnp.tanh(W @ z))
    return jax.jvp(jax.jacrev(f), (x,), (v,))[1]
