"""grad_reversal: a ``GradientReversal`` class whose ``__init__`` builds the ``custom_vjp`` as a
closure over λ (forward and backward rules defined inside the method) and whose ``__call__``
applies it; ``jax.vjp`` through an instance.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class GradientReversal:
    def __init__(self, lam: float):
        self.lam = lam

        @jax.custom_vjp
        def reverse(x):
            return x

        def fwd(x):
            return x, None

        def bwd(_, g):
            return (-self.lam * g,)

        reverse.defvjp(fwd, bwd)
        self._reverse = reverse

    def __call__(self, x):
        return self._reverse(x)


def grad_reverse(x, lam, dy):
    layer = GradientReversal(lam)
    y, pullback = jax.vjp(layer, x)
    return {"y": y, "dx": pullback(dy)[0]}
