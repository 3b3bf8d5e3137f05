"""pairwise_sq_dists: the squared norms as ``jnp.linalg.norm(X, axis=1) ** 2``: right values,
but where a row is all zeros the norm's derivative is 0 / 0 and the gradient NaN (the statement
says rows may be all zeros).

Problem: pairwise_sq_dists
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    nx = jnp.linalg.norm(X, axis=1) ** 2
    ny = jnp.linalg.norm(Y, axis=1) ** 2
    return nx[:, None] + ny[None, :] - 2.0 * (X @ Y.T)
