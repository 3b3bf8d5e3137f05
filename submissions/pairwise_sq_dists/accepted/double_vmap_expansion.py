import jax
import jax.numpy as jnp


def sq_dist(x, y):
    return jnp.dot(x, x) + jnp.dot(y, y) - 2.0 * jnp.dot(x, y)


def pairwise_sq_dists(X, Y):
    over_y = jax.vmap(sq_dist, in_axes=(None, 0))
    return jax.vmap(over_y, in_axes=(0, None))(X, Y)
