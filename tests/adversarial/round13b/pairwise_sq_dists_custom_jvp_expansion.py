"""pairwise_sq_dists: the expansion under a ``jax.custom_jvp`` with a hand-written tangent rule,
linear in the tangents (JAX transposes it for the judge's ``jax.vjp``):
dD = 2 x.dx (rows) + 2 y.dy (columns) - 2 (dX Y^T + X dY^T).

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def sq_dists(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2.0 * X @ Y.T


@sq_dists.defjvp
def _sq_dists_jvp(primals, tangents):
    X, Y = primals
    dX, dY = tangents
    out = sq_dists(X, Y)
    dout = (2.0 * jnp.sum(X * dX, 1)[:, None] + 2.0 * jnp.sum(Y * dY, 1)[None, :]
            - 2.0 * (dX @ Y.T + X @ dY.T))
    return out, dout


def pairwise_sq_dists(X, Y):
    return sq_dists(X, Y)
