"""pairwise_sq_dists: a ``jax.custom_vjp`` with the expansion forward and a hand-written
backward, dX = 2 (rowsum(G) X - G Y) and dY = 2 (colsum(G) Y - G^T X).

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def pairwise_sq_dists(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T


def _fwd(X, Y):
    return pairwise_sq_dists(X, Y), (X, Y)


def _bwd(res, G):
    X, Y = res
    dX = 2 * (G.sum(1)[:, None] * X - G @ Y)
    dY = 2 * (G.sum(0)[:, None] * Y - G.T @ X)
    return dX, dY


pairwise_sq_dists.defvjp(_fwd, _bwd)
