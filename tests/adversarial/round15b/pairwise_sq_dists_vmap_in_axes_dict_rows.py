"""pairwise_sq_dists: ``jax.vmap`` over the rows of X with an ``in_axes`` tree
(``({"x": 0, "Y": None, "yy": None},)``), each row's distances from the expansion against all
of Y: an (m,) vector per row, (n, m) in all.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def row(inp):
    x, Y, yy = inp["x"], inp["Y"], inp["yy"]
    return jnp.dot(x, x) + yy - 2.0 * (Y @ x)


def pairwise_sq_dists(X, Y):
    yy = jnp.sum(Y * Y, axis=1)
    return jax.vmap(row, in_axes=({"x": 0, "Y": None, "yy": None},))({"x": X, "Y": Y, "yy": yy})
