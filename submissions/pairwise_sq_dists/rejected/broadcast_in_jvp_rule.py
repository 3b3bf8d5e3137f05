import jax
import jax.numpy as jnp


@jax.custom_jvp
def pairwise_sq_dists(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2.0 * X @ Y.T


@pairwise_sq_dists.defjvp
def _jvp(primals, tangents):
    X, Y = primals
    dX, dY = tangents
    diff = X[:, None, :] - Y[None, :, :]                  # (n, m, d), only in the derivative
    return pairwise_sq_dists(X, Y), 2.0 * jnp.sum(diff * (dX[:, None, :] - dY[None, :, :]), -1)
