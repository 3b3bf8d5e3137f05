import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    D = jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2.0 * X @ Y.T
    dist = jnp.sqrt(jnp.maximum(D, 0.0))     # the Euclidean distance ...
    return dist ** 2                          # ... squared
