"""The closed-form Hessian W^T diag(s) W written out as a matrix, then times v.

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    s = -2.0 * t * (1.0 - t * t)
    H = W.T @ jnp.diag(s) @ W
    return H @ v
