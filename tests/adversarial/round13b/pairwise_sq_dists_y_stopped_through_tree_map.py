"""pairwise_sq_dists: ``Y`` passed through ``jax.tree_util.tree_map(jax.lax.stop_gradient, ...)``
in a dict, a stop_gradient spelled indirectly: the values are right, the gradient with respect
to ``Y`` is zero.

Problem: pairwise_sq_dists
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    frozen = jax.tree_util.tree_map(jax.lax.stop_gradient, {"points": Y})
    Yc = frozen["points"]
    return jnp.sum(X * X, 1)[:, None] + jnp.sum(Yc * Yc, 1)[None, :] - 2.0 * X @ Yc.T
