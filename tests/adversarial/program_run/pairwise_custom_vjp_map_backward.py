"""pairwise_sq_dists: an honest forward in a ``jax.custom_vjp`` whose backward runs over the rows
of X one at a time with ``lax.map`` (a scan, which this problem forbids). The judge's vjp is
traced into the program the rules read, backward included.

Problem: pairwise_sq_dists
Expected: RJ forbidden_primitive
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
    gX = jax.lax.map(lambda a: 2.0 * (jnp.sum(a[1]) * a[0] - a[1] @ Y), (X, g))
    gY = 2.0 * (jnp.sum(g, axis=0)[:, None] * Y - g.T @ X)
    return gX, gY


pairwise_sq_dists.defvjp(_fwd, _bwd)
