"""hvp for hvp_tanh: jax.hessian whenever d * d fits the size bound at this case's shapes,
jvp-of-grad otherwise, both branches padded to the same number of equations. At concrete
shapes the branch reads d as a number; traced with d as a symbol, the comparison cannot be
decided.

Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    m, d = W.shape
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731
    if d * d <= 4 * m * d + 8 * d:
        return jax.hessian(f)(x) @ v
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
