"""Reference solution for pairwise_sq_dists: the matrix of squared Euclidean distances
between the rows of X and the rows of Y, D[i, j] = sum_k (X[i, k] - Y[j, k])^2, computed by
the expansion ||x_i||^2 + ||y_j||^2 - 2 x_i . y_j with one matrix product, so no value has
more than n * m, n * d or m * d elements. The judge differentiates it with respect to X and
to Y through ordinary autodiff."""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    x_sq = jnp.sum(X * X, axis=1)              # (n,)  ||x_i||^2
    y_sq = jnp.sum(Y * Y, axis=1)              # (m,)  ||y_j||^2
    cross = X @ Y.T                            # (n, m)  x_i . y_j
    return x_sq[:, None] + y_sq[None, :] - 2.0 * cross
