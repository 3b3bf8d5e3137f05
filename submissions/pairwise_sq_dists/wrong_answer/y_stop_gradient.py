import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    Y = jax.lax.stop_gradient(Y)
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None] - 2 * X @ Y.T
