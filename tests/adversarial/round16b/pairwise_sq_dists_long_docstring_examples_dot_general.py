"""pairwise_sq_dists: honest code with a long docstring holding examples, the cross term by
``lax.dot_general`` contracting the feature axes, and the squared norms by ``jnp.einsum``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def pairwise_sq_dists(X, Y):
    """Squared Euclidean distances between the rows of ``X`` and of ``Y``.

    Examples:
        >>> pairwise_sq_dists(jnp.array([[0.0, 0.0]]), jnp.array([[3.0, 4.0], [0.0, 1.0]]))
        Array([[25.,  1.]], dtype=float32)

    Uses ``|x - y|^2 = |x|^2 + |y|^2 - 2 x . y`` so that no ``(n, m, d)`` difference is built.
    """
    cross = lax.dot_general(X, Y, (((1,), (1,)), ((), ())))
    xx = jnp.einsum("nd,nd->n", X, X)
    yy = jnp.einsum("md,md->m", Y, Y)
    return xx[:, None] + yy[None, :] - 2.0 * cross
