"""pairwise_sq_dists: a cheat (or a careless fallback) whose ``custom_vjp`` backward rule takes
the direct (n, m, d) difference under a ``lax.cond`` on the data (when any distance is tiny) and
the expansion's gradient otherwise: the branch is in the program the judge reads, cases or not,
and its value is n m d elements.

Problem: pairwise_sq_dists
Expected: RJ intermediate_too_large
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.custom_vjp
def sq_dists(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2.0 * X @ Y.T


def _fwd(X, Y):
    D = sq_dists(X, Y)
    return D, (X, Y, D)


def _bwd(res, G):
    X, Y, D = res

    def direct(_):
        diff = X[:, None, :] - Y[None, :, :]
        gx = 2.0 * jnp.sum(G[:, :, None] * diff, axis=1)
        gy = -2.0 * jnp.sum(G[:, :, None] * diff, axis=0)
        return gx, gy

    def expansion(_):
        gx = 2.0 * (jnp.sum(G, 1)[:, None] * X - G @ Y)
        gy = 2.0 * (jnp.sum(G, 0)[:, None] * Y - G.T @ X)
        return gx, gy

    return lax.cond(jnp.min(D) < 1e-6, direct, expansion, None)


sq_dists.defvjp(_fwd, _bwd)


def pairwise_sq_dists(X, Y):
    return sq_dists(X, Y)
