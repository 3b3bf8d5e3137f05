import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    # ||x - y||^2 = ||x||^2 + ||y||^2 - 2 x.y, all pairs at once
    xx = jnp.sum(X ** 2, axis=1, keepdims=True)        # (n, 1)
    yy = jnp.sum(Y ** 2, axis=1, keepdims=True).T      # (1, m)
    return xx + yy - 2 * jnp.matmul(X, Y.T)
