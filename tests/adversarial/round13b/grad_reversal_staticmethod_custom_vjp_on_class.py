"""grad_reversal: the ``custom_vjp`` function and its rules as static methods of a layer class,
λ a ``nondiff_argnums`` argument, attached with ``defvjp`` after the class body; the layer object
called through ``jax.vjp`` of a lambda.

Problem: grad_reversal
Expected: AC
Cases: all
"""
from functools import partial

import jax


class GradReversal:
    def __init__(self, lam):
        self.lam = lam

    @staticmethod
    @partial(jax.custom_vjp, nondiff_argnums=(1,))
    def apply(x, lam):
        return x

    @staticmethod
    def _fwd(x, lam):
        return x, None

    @staticmethod
    def _bwd(lam, _, g):
        return (-lam * g,)

    def __call__(self, x):
        return GradReversal.apply(x, self.lam)


GradReversal.apply.defvjp(GradReversal._fwd, GradReversal._bwd)


def grad_reverse(x, lam, dy):
    layer = GradReversal(lam)
    y, pullback = jax.vjp(lambda x: layer(x), x)
    return {"y": y, "dx": pullback(dy)[0]}
