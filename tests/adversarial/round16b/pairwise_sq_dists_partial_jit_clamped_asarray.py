"""pairwise_sq_dists: honest code under ``functools.partial(jax.jit, static_argnames=...)`` (a
static flag for the clamp), ``jnp.asarray(..., dtype=...)`` on both sets, and the expansion
clamped at 0 with ``jnp.maximum``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("clamp",))
def _dists(X, Y, clamp=True):
    X = jnp.asarray(X, dtype=jnp.float32)
    Y = jnp.asarray(Y, dtype=jnp.float32)
    d = jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)
    return jnp.maximum(d, 0.0) if clamp else d


def pairwise_sq_dists(X, Y):
    return _dists(X, Y, clamp=True)
