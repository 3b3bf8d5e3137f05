import jax
import jax.numpy as jnp


def _expanded(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2.0 * X @ Y.T


@jax.custom_vjp
def pairwise_sq_dists(X, Y):
    # the exact direct form for the values, hidden in the primal of a custom_vjp
    return jnp.sum((X[:, None, :] - Y[None, :, :]) ** 2, axis=-1)


def _fwd(X, Y):
    return pairwise_sq_dists(X, Y), (X, Y)


def _bwd(res, G):
    X, Y = res
    return jax.vjp(_expanded, X, Y)[1](G)


pairwise_sq_dists.defvjp(_fwd, _bwd)
