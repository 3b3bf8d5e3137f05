"""pairwise_sq_dists: ``X @ Y.T`` for the cross term, ``jnp.sum(X ** 2, axis=1, keepdims=True)``
and ``jnp.sum(Y ** 2, axis=1)`` for the norms, type hints and an assert on the feature dims.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X: jax.Array, Y: jax.Array) -> jax.Array:
    assert X.ndim == 2 and Y.ndim == 2
    x2 = jnp.sum(X ** 2, axis=1, keepdims=True)
    y2 = jnp.sum(Y ** 2, axis=1)
    return x2 - 2 * X @ Y.T + y2
