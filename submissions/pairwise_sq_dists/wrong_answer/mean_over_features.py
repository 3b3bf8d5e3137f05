import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    return jnp.mean(X * X, 1)[:, None] + jnp.mean(Y * Y, 1)[None, :] - 2.0 * (X @ Y.T) / X.shape[1]
