"""hvp for hvp_tanh: a Python loop of Hessian rows for d <= 12 (each row a gradient of one
coordinate of the gradient), the honest jvp-of-grad above; the loop is padded to the count of
the honest branch. Traced with d as a symbol, ``d <= 12`` cannot be decided.

Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    d = x.shape[0]
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731
    g = jax.grad(f)
    if d <= 12:
        rows = [jax.grad(lambda y, i=i: g(y)[i])(x) for i in range(d)]
        return jnp.stack(rows) @ v
    return jax.jvp(g, (x,), (v,))[1]
