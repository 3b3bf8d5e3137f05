"""hvp_tanh: the closed form as a chain of products folded by
``functools.reduce(operator.matmul, ...)`` applied right to left (``W.T @ diag-free scaled
W @ v``), never forming a d x d matrix.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import functools
import operator

import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    curvature = -2.0 * t * (1.0 - t * t)
    chain = [W.T, curvature * functools.reduce(operator.matmul, [W, v])]
    return functools.reduce(operator.matmul, chain)
