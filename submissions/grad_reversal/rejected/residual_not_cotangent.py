"""The backward rule scales its residual (the input x) instead of the cotangent g: -lam * x.

Expected verdict: wrong answer.
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    rev.defvjp(lambda v: (v, v), lambda v, g: (-lam * v,))
    y, pullback = jax.vjp(rev, x)
    return {"y": y, "dx": pullback(dy)[0]}
