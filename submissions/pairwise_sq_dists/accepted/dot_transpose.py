import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    sq_norm_x = (X * X).sum(axis=1).reshape(-1, 1)
    sq_norm_y = (Y * Y).sum(axis=1).reshape(1, -1)
    gram = jnp.dot(X, Y.T)
    return sq_norm_x - 2 * gram + sq_norm_y
