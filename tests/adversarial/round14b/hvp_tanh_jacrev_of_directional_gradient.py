"""hvp_tanh: reverse over reverse spelled with ``jax.jacrev``: the Jacobian of the scalar
x -> grad f(x) . v (the Hessian is symmetric, so that is H v), under ``jax.jit``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def hvp(W, x, v):
    grad_f = jax.grad(lambda x: jnp.tanh(W @ x).sum())
    return jax.jacrev(lambda x: jnp.dot(grad_f(x), v))(x)
