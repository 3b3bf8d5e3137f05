"""pairwise_sq_dists: the expansion one row of X at a time under ``jax.vmap``, with a
``jax.debug.print`` of the row: n is a symbol, so the print is bound once with every row.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    y2 = jnp.sum(Y ** 2, axis=-1)

    def row(x):
        jax.debug.print("row {x}", x=x)
        return jnp.dot(x, x) + y2 - 2.0 * (Y @ x)

    return jax.vmap(row)(X)
