import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    x_sq = jnp.sum(X * X, axis=1)
    y_norm = jnp.linalg.norm(Y, axis=1)
    return x_sq[:, None] + y_norm[None, :] - 2.0 * X @ Y.T
