"""Honest hvp for hvp_tanh through an m x m matrix: H v = W^T diag(s) (W v), with diag(s) built
as an m x m array. No value grows with d faster than d; at m = 16, d = 1 the m x m matrix (256
elements) is larger than 4 m d + 8 d = 72, which the restated bound (+ m * m) admits.

Expected: AC
"""

import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    s = -2.0 * t * (1.0 - t * t)
    middle = jnp.diag(s)                 # (m, m)
    return W.T @ (middle @ (W @ v))
