"""The reversal is applied in the forward pass too: the function returns -lam * v, so y is
wrong (dx is right).

Expected verdict: wrong answer.
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return -lam * v

    rev.defvjp(lambda v: (-lam * v, None), lambda _, g: (-lam * g,))
    y, pullback = jax.vjp(rev, x)
    return {"y": y, "dx": pullback(dy)[0]}
