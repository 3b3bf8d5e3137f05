"""Defines the reversal with custom_vjp but calls its backward rule by hand on dy instead of
letting JAX differentiate through the function.

Expected verdict: rejected (the backward rule never runs as one).
"""
import jax


def grad_reverse(x, lam, dy):
    def fwd(v):
        return v, None

    def bwd(_, g):
        return (-lam * g,)

    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(fwd, bwd)
    return {"y": rev(x), "dx": bwd(None, dy)[0]}
