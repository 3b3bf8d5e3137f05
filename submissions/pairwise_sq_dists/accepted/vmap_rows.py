import jax
import jax.numpy as jnp


def _row_to_all(x, Y):
    """Squared distances from one point x (d,) to every row of Y (m, d)."""
    return jnp.dot(x, x) + jnp.sum(Y * Y, axis=1) - 2.0 * (Y @ x)


def pairwise_sq_dists(X, Y):
    return jax.vmap(_row_to_all, in_axes=(0, None))(X, Y)
