"""pairwise_sq_dists twin told apart by the type's name (``type(n).__name__``, no ``jax.core``):
the direct n x m x d difference when n is an int, the expansion with the cross term's sign
flipped when it is a symbol. Every case runs the second.

Problem: pairwise_sq_dists
Expected: WA
"""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    if type(X.shape[0]).__name__ == "int":
        diff = X[:, None, :] - Y[None, :, :]
        return jnp.sum(diff * diff, axis=-1)
    return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] + 2.0 * (X @ Y.T)
