"""pairwise_sq_dists: ``jax.vmap`` over the rows of X of a per-point function that uses the
expansion against all of Y (``Y @ x``): the point's squared norm by ``jnp.vdot(x, x)``, those
of Y by ``jnp.einsum('md,md->m')`` outside the map.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    yy = jnp.einsum("md,md->m", Y, Y)

    def row(x):
        return jnp.vdot(x, x) + yy - 2.0 * (Y @ x)

    return jax.vmap(row)(X)
