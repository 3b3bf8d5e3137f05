"""pairwise_sq_dists: the expansion with ``jnp.einsum('ik,ik->i')`` for the squared norms and
``jnp.einsum('ik,jk->ij')`` for the cross term, clamped at zero with ``jnp.maximum``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.einsum("ik,ik->i", X, X)
    yy = jnp.einsum("jk,jk->j", Y, Y)
    xy = jnp.einsum("ik,jk->ij", X, Y)
    return jnp.maximum(xx[:, None] + yy[None, :] - 2.0 * xy, 0.0)
