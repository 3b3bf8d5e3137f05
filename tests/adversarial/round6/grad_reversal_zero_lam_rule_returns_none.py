"""grad_reversal: an honest layer whose backward rule returns None at lam == 0 (JAX's way of
saying "a zero cotangent for this argument") and -lam * g otherwise. dx at lam = 0 is the zero
JAX makes of that None: what the rule returned, though it is made of nothing.

Problem: grad_reversal
Expected: AC
Cases: all
"""

import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def rev(v):
        return v

    def bwd(_, g):
        return (None,) if lam == 0 else (-lam * g,)

    rev.defvjp(lambda v: (v, None), bwd)
    y, pull = jax.vjp(rev, x)
    (dx,) = pull(dy)
    return {"y": y, "dx": dx}
