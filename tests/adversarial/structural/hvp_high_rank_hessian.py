"""hvp(W, x, v) that builds the d x d Hessian W.T diag(s) W, but only as arrays of more than 64
dimensions (the d x m x d product and the d x d Hessian carry 63 trailing dimensions of extent
1). Every value is as large as the Hessian; none has 64 or fewer dimensions, which is where the
program summary stopped looking.

Expected: RJ intermediate_too_large
"""

import jax.numpy as jnp

ONES = (1,) * 63


def hvp(W, x, v):
    m, d = W.shape
    t = jnp.tanh(W @ x)
    s = -2.0 * t * (1.0 - t ** 2)
    A = (W.T * s).reshape(d, m, 1, *ONES)          # (d, m, 1, 1...)
    B = W.reshape(1, m, d, *ONES)                  # (1, m, d, 1...)
    H = (A * B).sum(axis=1)                        # (d, d, 1...): the Hessian
    out = (H * v.reshape(1, d, *ONES)).sum(axis=1)
    return out.reshape(d)
