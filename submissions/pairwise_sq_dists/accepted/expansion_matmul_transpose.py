import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.sum(X * X, axis=1)[:, None]
    yy = jnp.sum(Y * Y, axis=1)[None, :]
    return xx + yy - 2.0 * X @ Y.T
