"""pairwise_sq_dists: the expansion wrapped in ``jax.custom_vjp`` with the backward pass written
by hand: dX = 2 (diag(C 1) X - C Y) and dY = 2 (diag(C^T 1) Y - C^T X) for a cotangent C (the
statement allows any way of differentiating, as long as both gradients are right).

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def pairwise_sq_dists(X, Y):
    return jnp.sum(X ** 2, 1)[:, None] + jnp.sum(Y ** 2, 1)[None, :] - 2.0 * X @ Y.T


def _fwd(X, Y):
    return pairwise_sq_dists(X, Y), (X, Y)


def _bwd(res, C):
    X, Y = res
    dX = 2.0 * (jnp.sum(C, axis=1)[:, None] * X - C @ Y)
    dY = 2.0 * (jnp.sum(C, axis=0)[:, None] * Y - C.T @ X)
    return dX, dY


pairwise_sq_dists.defvjp(_fwd, _bwd)
