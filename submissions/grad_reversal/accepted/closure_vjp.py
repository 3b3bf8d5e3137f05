"""Closure style: the reversal is a custom_vjp identity defined inside grad_reverse, its backward
rule closing over lam; dx is the pullback of dy through it.

Expected verdict: accepted.
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def flip(v):
        return v

    def flip_fwd(v):
        return v, None

    def flip_bwd(_, g):
        return (-lam * g,)

    flip.defvjp(flip_fwd, flip_bwd)
    y, pullback = jax.vjp(flip, x)
    return {"y": y, "dx": pullback(dy)[0]}
