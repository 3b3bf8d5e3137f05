"""The stop_gradient reversal -lam * v + stop_gradient((1 + lam) * v), plus a custom_vjp
reversal of v multiplied by zero so that a backward rule runs during the pullback. dy still
reaches dx through the stop_gradient formula, around the rule.

Expected verdict: rejected (dx does not come from a backward rule).
"""
import jax
from jax import lax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    def h(v):
        return -lam * v + lax.stop_gradient((1.0 + lam) * v) + 0.0 * rev(v)

    _, pullback = jax.vjp(h, x)
    return {"y": x, "dx": pullback(dy)[0]}
