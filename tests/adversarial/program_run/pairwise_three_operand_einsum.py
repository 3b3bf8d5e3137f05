"""pairwise_sq_dists, honest: the cross term as one three-operand ``jnp.einsum`` (its contraction
order is chosen from the extents, which are symbols in the program the rules read and run).

Expected: AC
"""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    two = jnp.full((X.shape[1],), 2.0, X.dtype)
    cross = jnp.einsum("nd,d,md->nm", X, two, Y)
    return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - cross
