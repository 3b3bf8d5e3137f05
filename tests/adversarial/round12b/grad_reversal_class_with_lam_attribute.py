"""grad_reversal: a layer class whose ``custom_vjp`` function takes λ as a nondiff argument
(``nondiff_argnums=(0,)``), the backward ``-lam * g``; ``jax.vjp`` of the layer object itself.

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
    y, pullback = jax.vjp(layer, x)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}
