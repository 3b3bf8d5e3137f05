"""pairwise_sq_dists: a per-pair function ``x @ x + y @ y - 2 * x @ y`` (the expansion, no
difference vector), ``jax.vmap``-ed over Y inside and over X outside: each dot batches into a
product of the sets, no (n, m, d) value.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax


def _pair(x, y):
    return x @ x + y @ y - 2 * (x @ y)


def pairwise_sq_dists(X, Y):
    return jax.vmap(jax.vmap(_pair, in_axes=(None, 0)), in_axes=(0, None))(X, Y)
