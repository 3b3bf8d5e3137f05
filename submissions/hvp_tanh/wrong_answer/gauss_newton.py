"""A Gauss-Newton product J^T J v with J the Jacobian of tanh(W x): W^T diag((1 - t^2)^2) W v.
That is a curvature approximation for least squares, not this function's Hessian.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    return W.T @ ((1.0 - t * t) ** 2 * (W @ v))
