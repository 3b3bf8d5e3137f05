"""pairwise_sq_dists: the expansion under ``jax.checkpoint`` (recomputed in the backward pass),
the cross term ``jnp.matmul(X, jnp.swapaxes(Y, -1, -2))``, the norms with ``keepdims`` and a
transpose.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def _dists(X, Y):
    xx = jnp.sum(X * X, axis=-1, keepdims=True)
    yy = jnp.sum(Y * Y, axis=-1, keepdims=True)
    return xx + yy.T - 2.0 * jnp.matmul(X, jnp.swapaxes(Y, -1, -2))


def pairwise_sq_dists(X, Y):
    return _dists(X, Y)
