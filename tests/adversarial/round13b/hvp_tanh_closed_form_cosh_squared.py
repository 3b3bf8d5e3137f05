"""hvp_tanh: the closed form with tanh'' written as ``-2 tanh(u) / cosh(u)^2`` (cosh overflows
to inf for large |u|, and the quotient goes to 0 as it should), two matrix-vector products with
``W`` and one with ``W.T``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    u = W @ x
    second = -2.0 * jnp.tanh(u) / jnp.cosh(u) ** 2
    return W.T @ (second * (W @ v))
