"""pairwise_sq_dists: honest code: ``jax.vmap`` over the rows of ``X`` of a function giving one
row of distances, ``|x|^2 + |Y_j|^2 - 2 Y x``, which builds ``(m,)`` vectors per row (``(n, m)``
in all).

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    yy = jnp.sum(Y ** 2, axis=1)

    def row(x):
        return jnp.dot(x, x) + yy - 2.0 * (Y @ x)

    return jax.vmap(row)(X)
