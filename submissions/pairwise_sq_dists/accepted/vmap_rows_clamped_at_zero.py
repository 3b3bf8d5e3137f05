import jax
import jax.numpy as jnp


def _row(x, Y, yy):
    return jnp.dot(x, x) + yy - 2 * (Y @ x)


def pairwise_sq_dists(X, Y):
    yy = jnp.einsum("md,md->m", Y, Y)
    return jnp.maximum(jax.vmap(_row, in_axes=(0, None, None))(X, Y, yy), 0.0)
