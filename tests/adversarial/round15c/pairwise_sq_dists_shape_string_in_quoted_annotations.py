"""pairwise_sq_dists: the annotations written as whole strings holding jaxtyping-style shapes
(``X: "Float[Array, 'n d']"``, no import of jaxtyping and no ``__future__``), the
norms as ``(X * X).sum(axis=1, keepdims=True)`` and the cross term ``X @ Y.T``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X: "Float[Array, 'n d']", Y: "Float[Array, 'm d']") -> "Float[Array, 'n m']":
    x_sq = (X * X).sum(axis=1, keepdims=True)
    y_sq = (Y * Y).sum(axis=1, keepdims=True)
    return x_sq + y_sq.T - 2.0 * (X @ Y.T)
