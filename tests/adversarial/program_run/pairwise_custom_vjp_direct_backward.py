"""pairwise_sq_dists: an honest forward in a ``jax.custom_vjp`` whose backward builds the direct
n x m x d difference the rules forbid. The judge's vjp is traced into the program the rules
read, backward included.

Problem: pairwise_sq_dists
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def pairwise_sq_dists(X, Y):
    return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)


def _fwd(X, Y):
    return pairwise_sq_dists(X, Y), (X, Y)


def _bwd(res, g):
    X, Y = res
    diff = X[:, None, :] - Y[None, :, :]
    gd = 2.0 * g[:, :, None] * diff
    return jnp.sum(gd, axis=1), -jnp.sum(gd, axis=0)


pairwise_sq_dists.defvjp(_fwd, _bwd)
