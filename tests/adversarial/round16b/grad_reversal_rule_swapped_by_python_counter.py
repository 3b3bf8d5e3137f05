"""grad_reversal: a cheat that counts its calls in a module-level Python counter: the first trace
pulls ``dy`` back through the layer, every later one (another ``lam`` or shape) writes ``dx`` as
the formula ``-lam * dy``. The judge traces once per static signature, so the formula is graded
on most cases.

Problem: grad_reversal
Expected: RJ backward_not_run
Cases: all
"""
import itertools

import jax

_calls = itertools.count()


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    if next(_calls) == 0:
        y, pb = jax.vjp(r, x)
        return {"y": y, "dx": pb(dy)[0]}
    return {"y": r(x), "dx": -lam * dy}
