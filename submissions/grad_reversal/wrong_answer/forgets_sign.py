"""The backward rule scales by lam but does not reverse: lam * g.

Expected verdict: wrong answer.
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, None), lambda _, g: (lam * g,))
    y, pullback = jax.vjp(rev, x)
    return {"y": y, "dx": pullback(dy)[0]}
