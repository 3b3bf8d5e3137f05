"""pairwise_sq_dists, honest: both point sets shifted by the first point of X before the
expansion (distances do not change; the numbers stay small). ``X[0]`` is a slice at concrete
shapes and a gather when n is a symbol; the program run is the one traced with symbols.

Expected: AC
"""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    c = X[0]
    X, Y = X - c, Y - c
    x_sq = jnp.sum(X * X, axis=1)
    y_sq = jnp.sum(Y * Y, axis=1)
    return x_sq[:, None] + y_sq[None, :] - 2.0 * (X @ Y.T)
