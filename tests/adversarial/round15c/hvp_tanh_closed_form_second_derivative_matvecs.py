"""hvp_tanh: the product written out from the chain rule, ``W.T @ (f''(Wx) * (W @ v))`` with
``f'' = -2 tanh (1 - tanh^2)`` by ``jnp.square``; ``assert W.ndim == 2`` and a docstring.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    """H(x) v for f(x) = sum(tanh(W x)), without building H."""
    assert W.ndim == 2 and x.ndim == 1
    t = jnp.tanh(W @ x)
    curvature = -2.0 * t * (1.0 - jnp.square(t))
    return W.T @ (curvature * (W @ v))
