"""pairwise_sq_dists: ``jax.lax.dot_general`` with explicit dimension numbers and
``precision=HIGHEST``, the three terms summed with ``functools.reduce(operator.add, ...)``, a
print of the shapes and a ``__main__`` block.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    print("X", X.shape, "Y", Y.shape)
    cross = jax.lax.dot_general(X, Y, (((1,), (1,)), ((), ())),
                                precision=jax.lax.Precision.HIGHEST)
    terms = [jnp.sum(X * X, axis=-1, keepdims=True), jnp.sum(Y * Y, axis=-1)[None, :], -2.0 * cross]
    return functools.reduce(operator.add, terms)


if __name__ == "__main__":
    print(pairwise_sq_dists(jnp.zeros((2, 2)), jnp.ones((3, 2))))
