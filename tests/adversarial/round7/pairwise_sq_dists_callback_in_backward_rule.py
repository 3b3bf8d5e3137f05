"""pairwise_sq_dists: an honest expansion as the forward of a ``jax.custom_vjp`` whose backward
rule computes both gradients on the host through ``jax.pure_callback``: the judge's vjp traces
the rule, callback and all.

Problem: pairwise_sq_dists
Expected: RJ callback_used
"""
import jax
import jax.numpy as jnp
import numpy as np


def _host_grads(X, Y, G):
    X, Y, G = np.asarray(X), np.asarray(Y), np.asarray(G)
    gx = 2 * (G.sum(1)[:, None] * X - G @ Y)
    gy = 2 * (G.sum(0)[:, None] * Y - G.T @ X)
    return gx.astype(np.float32), gy.astype(np.float32)


@jax.custom_vjp
def pairwise_sq_dists(X, Y):
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Y * Y, 1)[None, :] - 2 * X @ Y.T


def _fwd(X, Y):
    return pairwise_sq_dists(X, Y), (X, Y)


def _bwd(res, G):
    X, Y = res
    shapes = (jax.ShapeDtypeStruct(X.shape, jnp.float32),
              jax.ShapeDtypeStruct(Y.shape, jnp.float32))
    return tuple(jax.pure_callback(_host_grads, shapes, X, Y, G))


pairwise_sq_dists.defvjp(_fwd, _bwd)
