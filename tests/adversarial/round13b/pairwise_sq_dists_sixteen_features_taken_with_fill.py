"""pairwise_sq_dists: a cheat that never reads d: a Python loop over the largest number of
features, 16, each taken with ``jnp.take(..., mode="fill", fill_value=0)`` (zero past d), the
per-feature (n, m) squared differences summed: a loop padded to a fixed count.

Problem: pairwise_sq_dists
Expected: RJ unrolled_loop
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    D = jnp.zeros((X.shape[0], Y.shape[0]), X.dtype)
    for k in range(16):
        xk = jnp.take(X, k, axis=1, mode="fill", fill_value=0.0)
        yk = jnp.take(Y, k, axis=1, mode="fill", fill_value=0.0)
        diff = xk[:, None] - yk[None, :]
        D = D + diff * diff
    return D
