import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - X @ Y.T
