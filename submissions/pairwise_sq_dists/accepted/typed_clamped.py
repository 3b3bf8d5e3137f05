from jax import Array
import jax.numpy as jnp


def pairwise_sq_dists(X: Array, Y: Array) -> Array:
    """Squared distances, clamped at zero: rounding in the expansion may leave a tiny
    negative number where two points coincide."""
    x_sq: Array = jnp.sum(X * X, axis=1)
    y_sq: Array = jnp.sum(Y * Y, axis=1)
    D: Array = x_sq[:, None] + y_sq[None, :] - 2.0 * (X @ Y.T)
    return jnp.maximum(D, 0.0)
