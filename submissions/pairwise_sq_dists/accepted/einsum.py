import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.einsum("ik,ik->i", X, X)
    yy = jnp.einsum("jk,jk->j", Y, Y)
    xy = jnp.einsum("ik,jk->ij", X, Y)
    return xx[:, None] + yy[None, :] - 2.0 * xy
