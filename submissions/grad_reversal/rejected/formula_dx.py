"""A proper custom_vjp reversal gives y, but dx is the formula -lam * dy: the backward rule never
produces it. Numerically correct.

Expected verdict: rejected (dx does not come from a backward rule).
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    return {"y": rev(x), "dx": -lam * dy}
