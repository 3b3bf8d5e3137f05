"""pairwise_sq_dists: a cheat that hides Y from differentiation with a ``custom_jvp`` identity
whose tangent rule gives zeros (a stop_gradient spelled indirectly): the distances are right,
the gradient with respect to Y is zero.

Problem: pairwise_sq_dists
Expected: WA
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def frozen(a):
    return a


frozen.defjvps(lambda t, ans, a: jnp.zeros_like(t))


def pairwise_sq_dists(X, Y):
    Y = frozen(Y)
    return (X * X).sum(1)[:, None] + (Y * Y).sum(1)[None, :] - 2 * X @ Y.T
