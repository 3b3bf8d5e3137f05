"""pairwise_sq_dists: the expansion with the tiny negative results clamped by ``jax.nn.relu``
(whose derivative at 0 is 0), the norms by ``jnp.einsum('nd,nd->n')`` and the cross term by
``X @ Y.T``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.einsum("nd,nd->n", X, X)
    yy = jnp.einsum("md,md->m", Y, Y)
    return jax.nn.relu(xx[:, None] + yy[None, :] - 2 * (X @ Y.T))
