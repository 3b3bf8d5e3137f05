import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    diff = X[:, None, :] - Y[None, :, :]          # (n, m, d)
    return jnp.sum(diff ** 2, axis=-1)
