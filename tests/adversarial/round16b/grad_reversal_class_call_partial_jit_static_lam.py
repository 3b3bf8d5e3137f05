"""grad_reversal: honest code with a layer class holding ``lam`` as a plain attribute and a
``__call__``, and the entry point under ``functools.partial(jax.jit, static_argnames="lam")``.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as np


class GradientReversal:
    def __init__(self, lam: float):
        self.lam = lam

        @jax.custom_vjp
        def layer(v):
            return v

        def fwd(v):
            return v, None

        def bwd(_, g):
            return (np.negative(self.lam * g),)

        layer.defvjp(fwd, bwd)
        self._layer = layer

    def __call__(self, v):
        return self._layer(v)


@functools.partial(jax.jit, static_argnames="lam")
def grad_reverse(x, lam, dy):
    y, pullback = jax.vjp(GradientReversal(lam), x)
    return {"y": y, "dx": pullback(dy)[0]}
