"""pairwise_sq_dists: a numerically careful version: both sets centered on the mean of all
points (``jnp.concatenate`` of X and Y), one row against the set ``jax.vmap``-ed under
``jax.checkpoint``, float32 casts, the result floored at zero with ``jnp.where``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    X = X.astype(jnp.float32)
    Y = Y.astype(jnp.float32)
    center = jnp.mean(jnp.concatenate([X, Y], axis=0), axis=0)
    Xc, Yc = X - center, Y - center
    y_sq = jnp.sum(Yc * Yc, axis=1)

    @jax.checkpoint
    def row(x):
        return jnp.dot(x, x) + y_sq - 2.0 * (Yc @ x)

    D = jax.vmap(row)(Xc)
    return jnp.where(D < 0, jnp.zeros_like(D), D).astype(jnp.float32)
