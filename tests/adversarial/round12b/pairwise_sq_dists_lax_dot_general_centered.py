"""pairwise_sq_dists: both sets centered on X's mean first (for precision), the cross term by
``lax.dot_general`` contracting the features, the norms by ``jnp.square(...).sum(-1)``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def pairwise_sq_dists(X, Y):
    mu = jnp.mean(X, axis=0)
    Xc, Yc = X - mu, Y - mu
    cross = lax.dot_general(Xc, Yc, (((1,), (1,)), ((), ())))
    return jnp.square(Xc).sum(-1)[:, None] + jnp.square(Yc).sum(-1)[None, :] - 2 * cross
