"""pairwise_sq_dists: a ``SquaredEuclidean`` kernel class with a ``__call__`` and a static
``norms`` helper, the expansion with ``jnp.einsum`` for the cross term and ``jnp.maximum(.., 0)``
clamping; type annotations and a docstring per method.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class SquaredEuclidean:
    """||x - y||^2 for every pair of rows."""

    @staticmethod
    def norms(A: jax.Array) -> jax.Array:
        """The squared norm of each row."""
        return jnp.einsum("nd,nd->n", A, A)

    def __call__(self, X: jax.Array, Y: jax.Array) -> jax.Array:
        """(n, m) distances."""
        cross = jnp.einsum("nd,md->nm", X, Y)
        D = self.norms(X)[:, None] + self.norms(Y)[None, :] - 2.0 * cross
        return jnp.maximum(D, 0.0)


def pairwise_sq_dists(X, Y):
    return SquaredEuclidean()(X, Y)
