"""pairwise_sq_dists twin: at concrete shapes, the direct n x m x d difference the rules forbid;
with n, m, d symbols, an expansion whose cross term has the wrong sign (the same primitives and
shapes as an honest one). The program run is the one with symbols: its values are wrong.

Expected: WA
"""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    if isinstance(X.shape[0], int):
        diff = X[:, None, :] - Y[None, :, :]
        return jnp.sum(diff * diff, axis=-1)
    return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] + 2.0 * (X @ Y.T)
