"""pairwise_sq_dists: a module-level helper ``sqnorms`` applied with ``functools.partial`` over
axis 1, the cross term by ``jnp.einsum`` with ``optimize=True``, the sum assembled with
broadcasting ``[:, None]`` and ``[None]`` and type annotations.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def sqnorms(A: jax.Array, axis: int) -> jax.Array:
    return jnp.sum(jnp.square(A), axis=axis)


row_norms = partial(sqnorms, axis=1)


def pairwise_sq_dists(X: jax.Array, Y: jax.Array) -> jax.Array:
    cross = jnp.einsum("ik,jk->ij", X, Y, optimize=True)
    return row_norms(X)[:, None] + row_norms(Y)[None] - 2.0 * cross
