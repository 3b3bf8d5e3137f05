"""grad_reversal: the rule negates (g -> -g), and lam scales the cotangent before it enters
the pullback, ``pull(lam * dy)``, hidden as a ``jnp.multiply`` with a broadcast lam array:
lam is applied outside the rule.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def r(x):
    return x


def _fwd(x):
    return x, None


def _bwd(_, g):
    return (jnp.negative(g),)


r.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    y, pull = jax.vjp(r, x)
    weights = jnp.full(dy.shape, lam, dy.dtype)
    (dx,) = pull(jnp.multiply(weights, dy))
    return {"y": y, "dx": dx}
