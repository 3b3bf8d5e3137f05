import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    # Y treated as fixed reference points (cluster centres): no gradient to them
    Y = jax.lax.stop_gradient(Y)
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2.0 * X @ Y.T
