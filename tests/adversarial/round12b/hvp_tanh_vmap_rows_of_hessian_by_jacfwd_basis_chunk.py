"""hvp_tanh: H v by ``jax.hessian`` taken on the m-dimensional pre-activations only (an m x m
matrix, allowed) and chained through W: ``W^T (hessian(sum tanh)(Wx) (W v))``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    z = W @ x
    Hz = jax.hessian(lambda u: jnp.sum(jnp.tanh(u)))(z)
    return W.T @ (Hz @ (W @ v))
