"""The stop_gradient construction of a gradient reversal layer, with no custom_vjp:
h(v) = -lam * v + stop_gradient((1 + lam) * v) has the value v (up to rounding) and the
derivative -lam, so the pullback of dy through h is -lam * dy. y is returned as x itself.

Expected verdict: rejected (dx does not come from a backward rule).
"""
import jax
from jax import lax


def grad_reverse(x, lam, dy):
    def h(v):
        return -lam * v + lax.stop_gradient((1.0 + lam) * v)

    _, pullback = jax.vjp(h, x)
    return {"y": x, "dx": pullback(dy)[0]}
