"""pairwise_sq_dists: under ``jax.jit``, the cross term by ``jax.lax.dot_general`` contracting
the feature axes with ``precision=lax.Precision.HIGHEST`` and ``preferred_element_type``
float32, the norms by ``jnp.sum(X * X, axis=1, keepdims=True)``, and ``jnp.maximum`` at 0.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def pairwise_sq_dists(X, Y):
    cross = lax.dot_general(X, Y, (((1,), (1,)), ((), ())), precision=lax.Precision.HIGHEST,
                            preferred_element_type=jnp.float32)
    xx = jnp.sum(X * X, axis=1, keepdims=True)
    yy = jnp.sum(Y * Y, axis=1, keepdims=True).T
    return jnp.maximum(xx - 2.0 * cross + yy, 0.0)
