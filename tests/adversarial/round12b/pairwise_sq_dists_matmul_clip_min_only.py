"""pairwise_sq_dists: ``jnp.matmul`` for the cross term and ``jnp.clip(D, 0)`` with only a lower
bound (the statement allows clamping at 0), the norms by ``jnp.einsum('ij,ij->i')``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    D = (jnp.einsum("ij,ij->i", X, X)[:, None] + jnp.einsum("ij,ij->i", Y, Y)[None, :]
         - 2 * jnp.matmul(X, Y.T))
    return jnp.clip(D, 0)
