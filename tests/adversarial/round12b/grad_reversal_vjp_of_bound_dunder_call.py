"""grad_reversal: the layer class of ``grad_reversal_class_with_lam_attribute.py``, its
pullback taken by ``jax.vjp(layer.__call__, x)``: the method named by its dunder, as some write
it. The source gate lets ``.__call__`` be read: on any object it is what calling the object runs,
and what it leads to (``__self__``, ``__func__``) stays refused, and ``X.__call__(...)`` is
checked as the call ``X(...)`` (``tests/test_gate.py``).

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def reverse(lam, x):
    return x


def _fwd(lam, x):
    return x, None


def _bwd(lam, _, g):
    return (-lam * g,)


reverse.defvjp(_fwd, _bwd)


class GradientReversal:
    def __init__(self, lam: float):
        self.lam = lam

    def __call__(self, x):
        return reverse(self.lam, x)


def grad_reverse(x, lam, dy):
    layer = GradientReversal(lam)
    y, pullback = jax.vjp(layer.__call__, x)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}
