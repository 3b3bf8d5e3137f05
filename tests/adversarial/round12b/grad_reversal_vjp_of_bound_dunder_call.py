"""grad_reversal: the layer class of ``grad_reversal_class_with_lam_attribute.py``, its
pullback taken by ``jax.vjp(layer.__call__, x)``: the method named by its dunder, as some write
it. Honest, but the source gate refuses every dunder attribute but plain strings, ``__call__``
included (on a class object it is ``type.__call__``, which builds classes), and it cannot tell
an instance from a type by the source.

Problem: grad_reversal
Expected: AC
Cases: all
Open: the source gate refuses ``obj.__call__`` on any object, so honest code that names a
  layer's call method by its dunder is refused (``jax.vjp(layer, x)`` passes)
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
