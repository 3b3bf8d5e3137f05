"""An attack: a custom_vjp whose backward rule builds the (n, m, d) difference only when the
shapes are numbers, and raises when they are symbols, so that the program traced with symbolic
dims holds no derivative at all. Every case runs that program: its VJP probe has no value
(probe_failed), and the (n, m, d) difference never runs.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def pairwise_sq_dists(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T


def fwd(X, Y):
    return pairwise_sq_dists(X, Y), (X, Y)


def bwd(res, g):
    X, Y = res
    if not isinstance(X.shape[0], int):
        raise ValueError("not now")
    diff = X[:, None, :] - Y[None, :, :]
    gX = 2 * jnp.sum(g[:, :, None] * diff, axis=1)
    gY = -2 * jnp.sum(g[:, :, None] * diff, axis=0)
    return gX, gY


pairwise_sq_dists.defvjp(fwd, bwd)
