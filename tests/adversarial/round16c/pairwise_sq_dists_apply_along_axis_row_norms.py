"""pairwise_sq_dists: the squared norm of each row by ``jnp.apply_along_axis(lambda r: r @ r,
1, ...)`` (a vector ``@`` a vector), the cross term ``X @ Y.T``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    nx = jnp.apply_along_axis(lambda r: r @ r, 1, X)
    ny = jnp.apply_along_axis(lambda r: r @ r, 1, Y)
    return nx[:, None] - 2 * (X @ Y.T) + ny[None, :]
