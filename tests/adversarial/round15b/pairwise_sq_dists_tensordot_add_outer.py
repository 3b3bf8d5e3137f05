"""pairwise_sq_dists: the expansion with ``jnp.tensordot`` over the feature axis and
``jnp.add.outer`` of the two vectors of squared norms, clamped at 0.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.sum(X * X, axis=1)
    yy = jnp.sum(Y * Y, axis=1)
    cross = jnp.tensordot(X, Y, axes=([1], [1]))
    return jnp.maximum(jnp.add.outer(xx, yy) - 2.0 * cross, 0.0)
