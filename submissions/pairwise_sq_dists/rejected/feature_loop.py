import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    # exact for close points: one (n, m) difference per feature, accumulated
    D = jnp.zeros((X.shape[0], Y.shape[0]), X.dtype)
    for k in range(X.shape[1]):
        D = D + (X[:, k][:, None] - Y[:, k][None, :]) ** 2
    return D
