"""pairwise_sq_dists: the cross term by ``lax.dot_general`` contracting the feature axes with
``precision=lax.Precision.HIGHEST``, the whole function under ``jax.jit``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def pairwise_sq_dists(X, Y):
    cross = lax.dot_general(X, Y, (((1,), (1,)), ((), ())), precision=lax.Precision.HIGHEST)
    xx = jnp.sum(jnp.square(X), axis=1)
    yy = jnp.sum(jnp.square(Y), axis=1)
    return xx[:, None] + yy[None, :] - 2.0 * cross
