"""Class-based layer, as in a domain-adversarial network: GradientReversal(lam) holds its
coefficient and builds the custom_vjp function in __init__; calling the layer applies it.

Expected verdict: accepted.
"""
import jax


class GradientReversal:
    def __init__(self, lam: float):
        self._lam = lam

        @jax.custom_vjp
        def apply(v):
            return v

        apply.defvjp(self._fwd, self._bwd)
        self._apply = apply

    def _fwd(self, v):
        return v, None

    def _bwd(self, _residual, g):
        return (-self._lam * g,)

    def __call__(self, v):
        return self._apply(v)


def grad_reverse(x, lam, dy):
    layer = GradientReversal(lam)
    y, pullback = jax.vjp(layer, x)
    return {"y": y, "dx": pullback(dy)[0]}
