"""The backward rule reverses the gradient but never scales it: -g instead of -lam * g.

Expected verdict: wrong answer.
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, None), lambda _, g: (-g,))
    y, pullback = jax.vjp(rev, x)
    return {"y": y, "dx": pullback(dy)[0]}
