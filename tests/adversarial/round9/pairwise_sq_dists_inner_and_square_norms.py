"""pairwise_sq_dists: the expansion with ``jnp.inner(X, Y)`` for the cross term and
``jnp.square(...).sum(-1)`` for the norms, clamped at zero with ``jnp.clip(min=0)``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.square(X).sum(-1)
    yy = jnp.square(Y).sum(-1)
    return jnp.clip(xx[:, None] + yy[None, :] - 2.0 * jnp.inner(X, Y), min=0.0)
