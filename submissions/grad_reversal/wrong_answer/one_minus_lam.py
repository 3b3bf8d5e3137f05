"""The backward rule subtracts lam times the gradient from the gradient: g - lam * g, the
identity's gradient minus a penalty, instead of the reversed -lam * g.

Expected verdict: wrong answer.
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, None), lambda _, g: (g - lam * g,))
    y, pullback = jax.vjp(rev, x)
    return {"y": y, "dx": pullback(dy)[0]}
