import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    n, d = X.shape
    m = Y.shape[0]
    if n * m * d <= 2048:                          # small enough: the exact direct form
        return jnp.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1)
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2.0 * X @ Y.T
