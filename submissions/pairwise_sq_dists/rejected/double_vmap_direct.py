import jax
import jax.numpy as jnp


def sq_dist(x, y):
    return jnp.sum((x - y) ** 2)


def pairwise_sq_dists(X, Y):
    return jax.vmap(jax.vmap(sq_dist, in_axes=(None, 0)), in_axes=(0, None))(X, Y)
