import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    return jnp.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1)
