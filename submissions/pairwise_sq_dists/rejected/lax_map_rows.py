import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    y_sq = jnp.sum(Y * Y, axis=1)
    return jax.lax.map(lambda x: jnp.dot(x, x) + y_sq - 2.0 * (Y @ x), X)
