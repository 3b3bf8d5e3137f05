"""grad_reversal with a custom_vjp whose backward rule returns g unchanged, and the reversal
applied outside it: dx = -lam * pullback(dy)[0]. The rule ran, dx depends on the cotangent only
through it, and scaling the rule's output scales dx; but the sign and lam are not in the rule.

Expected: RJ grads_not_from_backward (with the rule's plumbed option)
"""

import jax


@jax.custom_vjp
def identity(x):
    return x


def _fwd(x):
    return x, None


def _bwd(_, g):
    return (g,)


identity.defvjp(_fwd, _bwd)


def grad_reverse(x, lam, dy):
    y, pullback = jax.vjp(identity, x)
    return {"y": y, "dx": -lam * pullback(dy)[0]}
