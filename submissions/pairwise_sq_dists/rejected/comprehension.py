import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    return jnp.stack([jnp.sum(x * x) + jnp.sum(Y * Y, 1) - 2.0 * (Y @ x) for x in X])
