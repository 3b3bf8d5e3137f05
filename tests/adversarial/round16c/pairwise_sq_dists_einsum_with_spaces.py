"""pairwise_sq_dists: every product a ``jnp.einsum`` whose subscripts have spaces
(``"n d, n d -> n"``, ``"n d, m d -> n m"``), the norms broadcast with ``[..., None]`` and
``[None, ...]``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    x_norm = jnp.einsum("n d, n d -> n", X, X)
    y_norm = jnp.einsum("m d, m d -> m", Y, Y)
    cross = jnp.einsum("n d, m d -> n m", X, Y)
    return x_norm[..., None] + y_norm[None, ...] - 2.0 * cross
