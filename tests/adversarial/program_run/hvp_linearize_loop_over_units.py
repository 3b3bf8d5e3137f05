"""hvp_tanh, honest: ``jax.linearize`` of the gradient, the gradient written as a Python loop over
the m units (m is a number; only d is a symbol).

Problem: hvp_tanh
Expected: AC
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(y):
        total = 0.0
        for i in range(W.shape[0]):
            total = total + jnp.tanh(W[i] @ y)
        return total

    return jax.linearize(jax.grad(f), x)[1](v)
