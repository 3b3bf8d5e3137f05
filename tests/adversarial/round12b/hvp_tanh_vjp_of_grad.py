"""hvp_tanh: reverse over reverse by ``jax.vjp`` of the gradient at x, its pullback applied to
v (the Hessian is symmetric).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.tanh(W @ z).sum())
    _, pullback = jax.vjp(grad_f, x)
    return pullback(v)[0]
