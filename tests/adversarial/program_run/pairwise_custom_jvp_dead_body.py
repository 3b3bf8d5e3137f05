"""pairwise_sq_dists: a ``jax.custom_jvp`` whose body is the direct n x m x d difference the rules
forbid, and whose JVP rule computes the value and tangent by the honest expansion. The judge
traces its vjp into the program, where the primal value is the JVP rule's: the body never runs
and is not in the program the rules read. Graded on what runs, which is honest.

Problem: pairwise_sq_dists
Expected: AC
"""

import jax
import jax.numpy as jnp


def _expansion(X, Y):
    return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)


@jax.custom_jvp
def pairwise_sq_dists(X, Y):
    diff = X[:, None, :] - Y[None, :, :]
    return jnp.sum(diff * diff, axis=-1)


@pairwise_sq_dists.defjvp
def _jvp(primals, tangents):
    X, Y = primals
    dX, dY = tangents
    out = _expansion(X, Y)
    dout = (2.0 * jnp.sum(X * dX, axis=1)[:, None] + 2.0 * jnp.sum(Y * dY, axis=1)[None, :]
            - 2.0 * (dX @ Y.T + X @ dY.T))
    return out, dout
