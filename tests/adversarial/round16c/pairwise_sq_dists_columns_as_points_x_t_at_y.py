"""pairwise_sq_dists: written for points stored as columns (a linear-algebra course's
convention): ``A = X.T``, ``B = Y.T``, the cross term ``A.T @ B`` and the squared norms
``jnp.sum(A * A, axis=0)``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def sq_dists_columns(A, B):
    a2 = jnp.sum(A * A, axis=0)
    b2 = jnp.sum(B * B, axis=0)
    return a2[:, None] + b2[None, :] - 2.0 * (A.T @ B)


def pairwise_sq_dists(X, Y):
    return sq_dists_columns(X.T, Y.T)
