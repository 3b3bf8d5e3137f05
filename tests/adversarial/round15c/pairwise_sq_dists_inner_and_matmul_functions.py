"""pairwise_sq_dists: the cross term by ``jnp.inner(X, Y)``, the squared norms by ``jnp.sum(X ** 2,
1)``, put together by broadcasting and ``jnp.subtract``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    norms = jnp.sum(X ** 2, 1)[:, None] + jnp.sum(Y ** 2, 1)[None, :]
    return jnp.subtract(norms, 2 * jnp.inner(X, Y))
