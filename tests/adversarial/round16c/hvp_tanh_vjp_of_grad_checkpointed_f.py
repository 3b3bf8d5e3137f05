"""hvp_tanh: the Hessian is symmetric, so the pullback of ``v`` through ``jax.grad(f)`` is
``H v``: ``jax.vjp(jax.grad(f), x)``, with ``f`` wrapped in ``jax.checkpoint``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = jax.checkpoint(lambda x: jnp.sum(jnp.tanh(jnp.dot(W, x))))
    _, pullback = jax.vjp(jax.grad(f), x)
    return pullback(v)[0]
